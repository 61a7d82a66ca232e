import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { login } from '../helpers/accounts'
import type { RelayEnv } from '../helpers/relay-env'
import { startHardeningEnv } from './env'
import { expectErrorShape, shapeOf } from './shapes'

/**
 * Issue #13.3 and #13.4, over real HTTP with MAX_BODY_MB=1: a body over the limit is a 413 in the route's own
 * error shape whatever its size and framing. Before the fix a body past the limit + 1 MiB got Bun's own empty
 * 413 (no body, no content type), and a chunked body (no Content-Length) up to the limit + 1 MiB was read
 * and served, because only Content-Length was checked.
 */
const LIMIT = 1024 * 1024
let env: RelayEnv
let root: string

beforeAll(async () => {
  env = await startHardeningEnv({ MAX_BODY_MB: '1' })
  await env.addChannel({ type: 1 })
  await env.addChannel({ type: 14 })
  await env.addChannel({ type: 24 })
  root = await login(env.app)
})
afterAll(() => env.stop())

const chat = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }
/** Every route that reads a body, with what a well-formed call sends. */
const routes = (): { path: string; headers: Record<string, string>; body: unknown }[] => [
  { path: '/api/user/login', headers: {}, body: { username: 'root', password: 'wrong-password-1' } },
  { path: '/api/token/', headers: { cookie: root }, body: { name: 'fine' } },
  { path: '/v1/chat/completions', headers: { authorization: `Bearer ${env.key}` }, body: chat },
  { path: '/v1/responses', headers: { authorization: `Bearer ${env.key}` }, body: { model: 'gpt-4o', input: 'hi' } },
  { path: '/v1/messages', headers: { 'x-api-key': env.key, 'anthropic-version': '2023-06-01' }, body: { model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] } },
  { path: '/v1/messages/count_tokens', headers: { 'x-api-key': env.key, 'anthropic-version': '2023-06-01' }, body: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] } },
  { path: '/v1beta/models/gemini-2.5-flash:generateContent', headers: { 'x-goog-api-key': env.key }, body: { contents: [{ parts: [{ text: 'hi' }] }] } },
  { path: '/v1/models/gemini-2.5-flash:generateContent', headers: { 'x-goog-api-key': env.key }, body: { contents: [{ parts: [{ text: 'hi' }] }] } },
  { path: '/pg/chat/completions', headers: { cookie: root }, body: chat },
]

/** A JSON body padded with spaces to `size` bytes (still valid JSON, so only its size is wrong). */
function padded(body: unknown, size: number): string {
  const text = JSON.stringify(body)
  return text + ' '.repeat(Math.max(0, size - text.length))
}

/** The same bytes as a stream: fetch sends it chunked, with no Content-Length. */
function chunked(text: string, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  let at = 0
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close()
      controller.enqueue(bytes.subarray(at, at + chunk))
      at += chunk
    },
  })
}

async function post(path: string, headers: Record<string, string>, body: BodyInit) {
  const res = await env.app.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
  const text = await res.text()
  return { status: res.status, contentType: res.headers.get('content-type'), text, requestId: res.headers.get('x-request-id') }
}

function expect413(path: string, res: Awaited<ReturnType<typeof post>>) {
  if (res.status !== 413 || !res.text) throw new Error(`${path}: ${res.status} ${res.contentType} ${JSON.stringify(res.text.slice(0, 200))}`)
  expect(res.contentType).toContain('application/json')
  const message = expectErrorShape(shapeOf(path), JSON.parse(res.text))
  expect(message).toContain('1 MiB')
}

describe('413 in the route’s shape', () => {
  test('Content-Length just over the limit', async () => {
    for (const r of routes()) expect413(r.path, await post(r.path, r.headers, padded(r.body, LIMIT + 1)))
  })

  test('Content-Length past the limit + 1 MiB (Bun used to answer this one itself, empty)', async () => {
    for (const r of routes()) expect413(r.path, await post(r.path, r.headers, padded(r.body, LIMIT + 3 * 1024 * 1024)))
  })

  test('chunked, just over the limit (was read and served)', async () => {
    for (const r of routes()) expect413(r.path, await post(r.path, r.headers, chunked(padded(r.body, LIMIT + 1))))
  })

  test('chunked, past the limit + 1 MiB', async () => {
    for (const r of routes()) expect413(r.path, await post(r.path, r.headers, chunked(padded(r.body, LIMIT + 3 * 1024 * 1024))))
  })

  test('a chunked body that never ends is refused once past the limit, without reading it all', async () => {
    for (const r of [routes()[0]!, routes()[2]!]) {
      let pulled = 0
      const abort = new AbortController()
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 64 * 1024
          controller.enqueue(new Uint8Array(64 * 1024).fill(32))
        },
      })
      const res = await env.app.fetch(r.path, { method: 'POST', headers: { 'content-type': 'application/json', ...r.headers }, body: endless, signal: abort.signal })
      const text = await res.text()
      abort.abort()
      expect(res.status).toBe(413)
      expectErrorShape(shapeOf(r.path), JSON.parse(text))
      expect(pulled).toBeLessThan(64 * LIMIT) // the gateway stopped reading; the rest is what the sockets buffered
    }
  })
})

describe('bodies within the limit still work, whatever the framing', () => {
  test('chunked and Content-Length bodies of limit − 1 KiB are served', async () => {
    for (const framing of ['length', 'chunked'] as const) {
      const send = (path: string, headers: Record<string, string>, body: unknown) => {
        const text = padded(body, LIMIT - 1024)
        return post(path, headers, framing === 'chunked' ? chunked(text) : text)
      }
      const relayed = await send('/v1/chat/completions', { authorization: `Bearer ${env.key}` }, chat)
      expect(relayed.status).toBe(200)
      expect(JSON.parse(relayed.text).choices[0].message.content).toBeTruthy()
      const login = await send('/api/user/login', {}, { username: 'root', password: 'wrong-password-1' })
      expect(login.status).toBe(401) // read and parsed: wrong password, not a size or parse error
    }
    const ok = await post('/api/user/login', {}, chunked(JSON.stringify({ username: 'root', password: 'root-password-123' })))
    expect(ok.status).toBe(200)
  })

  test('the limit is exact: limit bytes pass, limit + 1 do not', async () => {
    const at = await post('/v1/chat/completions', { authorization: `Bearer ${env.key}` }, chunked(padded(chat, LIMIT)))
    expect(at.status).toBe(200)
    const over = await post('/v1/chat/completions', { authorization: `Bearer ${env.key}` }, chunked(padded(chat, LIMIT + 1)))
    expect(over.status).toBe(413)
  })
})
