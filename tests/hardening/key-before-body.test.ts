import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { startHardeningEnv } from './env'
import { expectErrorShape, shapeOf } from './shapes'

/**
 * Over real HTTP: a relay route checks the API key before it reads the body. A caller whose key is refused
 * gets its 401 (in the route's shape) without the gateway waiting for, buffering or scanning its body, so a
 * client without a valid key cannot make it hold bodies up to the size limit. Each body below sends its first
 * KiB of a declared 512 KiB and then never another byte: a gateway that read the body first would wait for it.
 */
let env: RelayEnv

beforeAll(async () => {
  env = await startHardeningEnv({ MAX_BODY_MB: '1' })
  await env.addChannel({ type: 1 })
})
afterAll(() => env.stop())

const DECLARED = 512 * 1024
/** Every relay route that reads a body, with the header its clients put the key in. */
const routes: { path: string; keyHeader: (key: string) => Record<string, string>; contentType?: string }[] = [
  { path: '/v1/chat/completions', keyHeader: (key) => ({ authorization: `Bearer ${key}` }) },
  { path: '/v1/responses', keyHeader: (key) => ({ authorization: `Bearer ${key}` }) },
  { path: '/v1/messages', keyHeader: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }) },
  { path: '/v1/messages/count_tokens', keyHeader: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }) },
  { path: '/v1beta/models/gemini-2.5-flash:generateContent', keyHeader: (key) => ({ 'x-goog-api-key': key }) },
  { path: '/v1beta/models/gemini-2.5-flash:countTokens', keyHeader: (key) => ({ 'x-goog-api-key': key }) },
  { path: '/v1/embeddings', keyHeader: (key) => ({ authorization: `Bearer ${key}` }) },
  { path: '/v1/audio/transcriptions', keyHeader: (key) => ({ authorization: `Bearer ${key}` }), contentType: 'multipart/form-data; boundary=tollgate-test' },
]

/** Sends the first KiB of a body of `DECLARED` bytes, then holds the rest back; answers whatever came first, the response or `waitMs`. */
async function postStalled(path: string, headers: Record<string, string>, contentType = 'application/json', waitMs = 5000) {
  let chunks = 0
  const stalled = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (chunks++ > 0) return new Promise<void>(() => {}) // never another byte
      controller.enqueue(new TextEncoder().encode(`{"model":"gpt-4o","messages":[{"role":"user","content":"${'x'.repeat(1000)}`))
    },
  })
  const abort = new AbortController()
  const timer = setTimeout(() => abort.abort(), waitMs)
  try {
    const res = await env.app.fetch(path, {
      method: 'POST',
      headers: { 'content-type': contentType, 'content-length': String(DECLARED), ...headers },
      body: stalled,
      signal: abort.signal,
    })
    return { status: res.status, body: JSON.parse(await res.text()) as unknown }
  } catch (error) {
    if (abort.signal.aborted) return undefined // no answer while the body was held back
    throw error
  } finally {
    clearTimeout(timer)
    abort.abort()
  }
}

describe('the key is checked before the body is read', () => {
  test('an unknown key is refused with the body still arriving, on every relay route, in its shape', async () => {
    for (const route of routes) {
      const res = await postStalled(route.path, route.keyHeader('sk-not-a-key-of-this-gateway-000000000000'), route.contentType)
      if (!res) throw new Error(`${route.path}: no answer while the body was held back`)
      expect(res.status).toBe(401)
      expect(expectErrorShape(shapeOf(route.path, route.keyHeader('k')), res.body)).toContain('invalid API key')
    }
  })

  test('no key at all: the same', async () => {
    for (const route of routes) {
      const res = await postStalled(route.path, route.path.startsWith('/v1/messages') ? { 'anthropic-version': '2023-06-01' } : {}, route.contentType)
      if (!res) throw new Error(`${route.path}: no answer while the body was held back`)
      expect(res.status).toBe(401)
      expect(expectErrorShape(shapeOf(route.path), res.body)).toContain('no API key')
    }
  })

  test('a valid key waits for its body (so the refusals above did not come from the stalled body)', async () => {
    const res = await postStalled('/v1/chat/completions', { authorization: `Bearer ${env.key}` }, 'application/json', 600)
    expect(res).toBeUndefined()
    // and the same connection pool still serves a whole body with that key
    const served = await env.app.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.key}` },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(served.status).toBe(200)
  })

  test('a refused caller then sends a whole body: still a 401, and a valid call after it on the same server is served', async () => {
    const big = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'y'.repeat(DECLARED) }] })
    const refused = await env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-wrong' }, body: big })
    expect(refused.status).toBe(401)
    const served = await env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${env.key}` }, body: big })
    expect(served.status).toBe(200)
    expect(((await served.json()) as { choices: unknown[] }).choices.length).toBe(1)
  })
})
