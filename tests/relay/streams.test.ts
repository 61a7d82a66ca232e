import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { RelayOutcome } from '../../src/relay/types'
import { startRelayEnv, UPSTREAM_KEY, type RelayEnv } from '../helpers/relay-env'
import { until } from '../helpers/wait'

/** Streams after the first byte: client disconnects, upstream cuts, and passthrough byte fidelity. */
let env: RelayEnv
let openai: OpenAI
let anthropic: Anthropic

beforeAll(async () => {
  env = await startRelayEnv()
  // cut streams count as channel failures: keep these channels from being auto-disabled by the cut tests
  await env.addChannel({ type: 1, models: 'gpt-4o', autoBan: 0 })
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5', autoBan: 0 })
  openai = new OpenAI({ apiKey: env.key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
  anthropic = new Anthropic({ apiKey: env.key, baseURL: env.app.url, maxRetries: 0 })
})
afterAll(() => env.stop())
let testStartedAt = 0
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
  testStartedAt = performance.now()
})
/** A client this test opened and did not close would disconnect during the next test: close it here. */
const openClients = new Set<AbortController>()
afterEach(() => {
  for (const abort of openClients) abort.abort()
  openClients.clear()
})

const longText = Array.from({ length: 40 }, (_, i) => `word${i} `)
const anthropicHeaders = () => ({ 'x-api-key': env.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' })
const chatHeaders = () => ({ authorization: `Bearer ${env.key}`, 'content-type': 'application/json' })

/** The first outcome of a request this test made (a late one from an earlier test is not it); `ms` is a hang detector. */
async function outcome(ms = 10_000): Promise<RelayOutcome> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    const mine = env.outcomes.find((o) => o.startedAt >= testStartedAt)
    if (mine) return mine
    await Bun.sleep(5)
  }
  throw new Error('no outcome was settled')
}

/** Read a response body to its end, failing if it takes longer than `ms` (a hang). */
async function readAll(res: Response, ms = 3000): Promise<string> {
  return Promise.race([res.text(), Bun.sleep(ms).then(() => Promise.reject(new Error(`stream did not end within ${ms} ms`)))])
}

describe('client disconnect aborts the upstream at once', () => {
  const cases = [
    { name: 'chat passthrough', path: '/v1/chat/completions', headers: chatHeaders, body: { model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'go' }] } },
    { name: 'anthropic passthrough', path: '/v1/messages', headers: anthropicHeaders, body: { model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'go' }] } },
    { name: 'anthropic client → chat upstream (conversion)', path: '/v1/messages', headers: anthropicHeaders, body: { model: 'gpt-4o', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'go' }] } },
  ]
  for (const c of cases) {
    test(c.name, async () => {
      // after eight frames the upstream thinks for a minute: only the gateway passing on the disconnect ends it sooner,
      // so "at once" is an order (the upstream saw the abort while it still had a minute and 32 frames to go), not a
      // wall-clock deadline that a loaded machine misses
      env.upstream.setBehavior({ text: longText, pauseAt: { after: 8, ms: 60_000 } })
      const abort = new AbortController()
      openClients.add(abort)
      const res = await env.app.fetch(c.path, { method: 'POST', headers: c.headers(), body: JSON.stringify(c.body), signal: abort.signal })
      expect(res.status).toBe(200)
      const reader = res.body!.getReader()
      const first = await reader.read()
      expect(first.done).toBe(false)
      abort.abort()
      await env.upstream.waitForDisconnect(1, 10_000) // a hang detector: the pause is 60 s, a pass takes milliseconds
      const settled = await outcome()
      expect(settled.aborted).toBe(true)
      expect(env.upstream.requests[0]!.aborted).toBe(true)
      expect(env.upstream.requests[0]!.completed).toBe(false)
      expect(env.upstream.requests[0]!.framesSent).toBeLessThanOrEqual(8) // never got past the pause
    }, 30_000)
  }

  test('the Anthropic SDK stream aborted after its first event', async () => {
    env.upstream.setBehavior({ text: longText, pauseAt: { after: 8, ms: 60_000 } })
    const stream = anthropic.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'go' }] })
    try {
      for await (const event of stream) {
        expect(event.type).toBe('message_start')
        stream.abort()
        break
      }
      await env.upstream.waitForDisconnect(1, 10_000) // a hang detector, as above
      expect((await outcome()).aborted).toBe(true)
      expect(env.upstream.requests[0]!.completed).toBe(false)
    } finally {
      stream.abort()
    }
  }, 30_000)
})

describe('client gone before the first byte', () => {
  test('the upstream call is aborted, the outcome says aborted, and the channel is not blamed', async () => {
    const id = await env.addChannel({ type: 1, name: 'patient', models: 'slow-model', autoBan: 1 })
    for (let i = 1; i <= 3; i++) {
      env.outcomes.length = 0
      // the upstream would answer after a minute: a disconnect seen before that was passed on by the gateway
      env.upstream.setBehavior({ text: 'late', firstByteDelayMs: 60_000 })
      const abort = new AbortController()
      openClients.add(abort)
      const sent = env.upstream.requests.length
      const pending = env.app.fetch('/v1/chat/completions', {
        method: 'POST',
        headers: chatHeaders(),
        body: JSON.stringify({ model: 'slow-model', messages: [{ role: 'user', content: 'go' }] }),
        signal: abort.signal,
      }).catch((e) => e)
      await until(() => env.upstream.requests.length > sent, { what: 'the request at the upstream' }) // then the client goes
      abort.abort()
      await pending
      await env.upstream.waitForDisconnect(i, 10_000) // a hang detector: a pass takes milliseconds
      expect((await outcome()).aborted).toBe(true)
    }
    await Bun.sleep(50)
    expect(await env.app.deps.routing.health.failures(id)).toBe(0)
    expect((await env.app.deps.repos.channels.findById(id))!.status).toBe(1)
  }, 60_000)
})

describe('the upstream cuts the stream after the first byte', () => {
  test('anthropic: the client gets an `event: error` and the stream ends', async () => {
    env.upstream.setBehavior({ text: ['one', 'two', 'three'], cutAfter: 4 })
    const res = await env.app.fetch('/v1/messages', {
      method: 'POST',
      headers: anthropicHeaders(),
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'go' }] }),
    })
    expect(res.status).toBe(200)
    const text = await readAll(res)
    expect(text).toContain('"text":"one"')
    expect(text).not.toContain('"text":"two"')
    const last = text.trimEnd().split('\n\n').at(-1)!
    expect(last.startsWith('event: error\ndata: ')).toBe(true)
    const error = JSON.parse(last.slice(last.indexOf('data: ') + 6))
    expect(error).toMatchObject({ type: 'error', error: { type: expect.any(String), message: expect.stringContaining('upstream') } })
    const settled = await outcome()
    expect(settled.aborted).toBe(false)
    expect(settled.error).toBeTruthy()
    expect(text).not.toContain(UPSTREAM_KEY)
  })

  test('anthropic SDK: the stream rejects with the error, it does not hang', async () => {
    env.upstream.setBehavior({ text: ['one', 'two', 'three'], cutAfter: 4 })
    const stream = anthropic.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'go' }] })
    const error = await Promise.race([stream.finalMessage().then(() => undefined, (e) => e), Bun.sleep(3000).then(() => 'hang')])
    expect(error).toBeInstanceOf(Error)
    expect(String((error as Error).message)).toContain('upstream')
  })

  test('chat: the client gets a data chunk with `error` and the stream ends', async () => {
    env.upstream.setBehavior({ text: ['one', 'two', 'three'], cutAfter: 2 })
    const res = await env.app.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: chatHeaders(),
      body: JSON.stringify({ model: 'gpt-4o', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'go' }] }),
    })
    expect(res.status).toBe(200)
    const text = await readAll(res)
    expect(text).toContain('"content":"one"')
    const last = text.trimEnd().split('\n\n').at(-1)!
    expect(last.startsWith('data: ')).toBe(true)
    expect(JSON.parse(last.slice(6))).toMatchObject({ error: { message: expect.stringContaining('upstream'), type: expect.any(String) } })
    expect((await outcome()).error).toBeTruthy()
  })

  test('chat via the OpenAI SDK (usage chunk dropped, re-framed path): the stream throws, no hang', async () => {
    env.upstream.setBehavior({ text: ['one', 'two', 'three'], cutAfter: 2 })
    const stream = openai.chat.completions.stream({ model: 'gpt-4o', messages: [{ role: 'user', content: 'go' }] })
    const error = await Promise.race([stream.finalChatCompletion().then(() => undefined, (e) => e), Bun.sleep(3000).then(() => 'hang')])
    expect(error).toBeInstanceOf(Error)
    expect(String((error as Error).message)).toContain('upstream')
  })

  test('conversion (anthropic client, chat upstream): an `event: error` too', async () => {
    env.upstream.setBehavior({ text: ['one', 'two', 'three'], cutAfter: 2 })
    const res = await env.app.fetch('/v1/messages', {
      method: 'POST',
      headers: anthropicHeaders(),
      body: JSON.stringify({ model: 'gpt-4o', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'go' }] }),
    })
    const text = await readAll(res)
    expect(text).toContain('event: error\n')
    expect(text).toContain('"text":"one"')
  })
})

describe('passthrough streams are the upstream bytes', () => {
  /** The fake's ids, fingerprints and timestamps are random per reply: normalise just those. */
  const normalise = (text: string) =>
    text
      .replace(/msg_01[A-Za-z0-9]{22}/g, 'msg_ID')
      .replace(/chatcmpl-[A-Za-z0-9]{29}/g, 'chatcmpl-ID')
      .replace(/fp_[0-9a-f]{10}/g, 'fp_ID')
      .replace(/"created":\d+/g, '"created":0')

  async function direct(path: string, headers: Record<string, string>, body: string): Promise<string> {
    const res = await fetch(env.upstream.url + path, { method: 'POST', headers, body })
    expect(res.status).toBe(200)
    return res.text()
  }

  test('anthropic stream (thinking, text, tool call)', async () => {
    const scenario = { reasoning: ['hmm', ' ok'], signature: 'sig-fixed', text: ['Hel', 'lo'], toolCalls: [{ id: 'toolu_fixed', name: 'f', arguments: { a: 1 } }], usage: { input: 7, cacheRead: 3, output: 9 } }
    env.upstream.setBehavior(scenario)
    const body = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 2048, stream: true, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'go' }] })
    const relayed = await (await env.app.fetch('/v1/messages', { method: 'POST', headers: anthropicHeaders(), body })).text()
    const original = await direct('/v1/messages', { 'x-api-key': UPSTREAM_KEY, 'anthropic-version': '2023-06-01' }, body)
    expect(relayed.length).toBeGreaterThan(500)
    expect(normalise(relayed)).toBe(normalise(original))
    expect(env.outcomes[0]!.usage?.input).toEqual({ noCache: 7, cacheRead: 3, cacheWrite: 0 })
  })

  test('chat stream with include_usage', async () => {
    env.upstream.setBehavior({ text: ['a', 'b', 'c'], toolCalls: [{ id: 'call_fixed', name: 'f', arguments: { x: 'y' } }], usage: { input: 4, output: 2 } })
    const body = JSON.stringify({ model: 'gpt-4o', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'go' }] })
    const relayed = await (await env.app.fetch('/v1/chat/completions', { method: 'POST', headers: chatHeaders(), body })).text()
    const original = await direct('/v1/chat/completions', { authorization: `Bearer ${UPSTREAM_KEY}` }, body)
    expect(relayed).toContain('data: [DONE]')
    expect(normalise(relayed)).toBe(normalise(original))
    expect(env.outcomes[0]!.usage?.output.text).toBe(2)
  })
})
