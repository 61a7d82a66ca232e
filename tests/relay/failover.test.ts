import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { startFakeUpstream, type FakeUpstream, type Scenario } from '../helpers/fake-upstreams'
import { startRelayEnv, UPSTREAM_KEY, type RelayEnv } from '../helpers/relay-env'

/**
 * Failover before the first byte: channel A (priority 10) fails, channel B (priority 0, its own fake
 * upstream) answers. Each test uses its own model so the channels of one test never serve another.
 */
let env: RelayEnv
let upB: FakeUpstream
let openai: OpenAI
let anthropic: Anthropic
let closedPort: number

beforeAll(async () => {
  env = await startRelayEnv()
  upB = await startFakeUpstream({ keys: [UPSTREAM_KEY] })
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
  closedPort = probe.port!
  await probe.stop(true)
  openai = new OpenAI({ apiKey: env.key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
  anthropic = new Anthropic({ apiKey: env.key, baseURL: env.app.url, maxRetries: 0 })
})
afterAll(async () => {
  await env.stop()
  await upB.stop()
})
beforeEach(() => {
  env.upstream.reset()
  upB.reset()
  env.outcomes.length = 0
})
afterEach(() => env.app.deps.options.set('RelayTimeoutSeconds', 300))

/** A on env.upstream (or `aUrl`) at priority 10, B on upB at priority 0, both serving `model`. */
async function pair(model: string, type: number, aUrl = env.upstream.url) {
  const a = await env.addChannel({ type, name: `A-${model}`, models: model, priority: 10, baseUrl: aUrl })
  const b = await env.addChannel({ type, name: `B-${model}`, models: model, priority: 0, baseUrl: upB.url })
  return { a, b }
}

const chat = (model: string) => openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })

describe('a failing channel hands over to the next before the first byte', () => {
  const cases: [string, Scenario][] = [
    ['500', { error: { status: 500, message: 'A is broken' } }],
    ['429', { error: { status: 429, message: 'A is rate limited' } }],
  ]
  for (const [name, scenario] of cases) {
    test(`upstream ${name} → one clean answer from B; attempts record both`, async () => {
      const model = `fo-${name}`
      const { a, b } = await pair(model, 1)
      env.upstream.setBehavior(scenario)
      upB.setBehavior({ text: 'from B' })
      const completion = await chat(model)
      expect(completion.choices[0]!.message.content).toBe('from B')
      expect(env.upstream.requests).toHaveLength(1)
      expect(upB.requests).toHaveLength(1)
      const outcome = env.outcomes[0]!
      expect(outcome.ok).toBe(true)
      expect(outcome.channelId).toBe(b)
      expect(outcome.attempts.map((x) => [x.channelId, x.status])).toEqual([[a, Number(name)], [b, 200]])
      expect(outcome.attempts[0]!.error).toContain(scenario.error!.message!)
    })
  }

  test('network error (A points at a closed port) → B answers', async () => {
    const { a, b } = await pair('fo-net', 1, `http://127.0.0.1:${closedPort}`)
    upB.setBehavior({ text: 'from B' })
    const completion = await chat('fo-net')
    expect(completion.choices[0]!.message.content).toBe('from B')
    const outcome = env.outcomes[0]!
    expect(outcome.attempts.map((x) => [x.channelId, x.status])).toEqual([[a, 0], [b, 200]])
    expect(outcome.attempts[0]!.error).toContain('unreachable')
  })

  test('timeout (A never sends headers) → B answers after RelayTimeoutSeconds', async () => {
    await env.app.deps.options.set('RelayTimeoutSeconds', 1)
    const { a, b } = await pair('fo-timeout', 14)
    env.upstream.setBehavior({ stall: 'headers' })
    upB.setBehavior({ text: 'from B' })
    const started = performance.now()
    const message = await anthropic.messages.create({ model: 'fo-timeout', max_tokens: 32, messages: [{ role: 'user', content: 'hi' }] })
    const took = performance.now() - started
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'from B' })
    expect(took).toBeGreaterThan(900)
    expect(took).toBeLessThan(30_000) // a hang detector: A stalls until the test ends; 'timed out' is checked below
    const outcome = env.outcomes[0]!
    expect(outcome.attempts.map((x) => [x.channelId, x.status])).toEqual([[a, 0], [b, 200]])
    expect(outcome.attempts[0]!.error).toContain('timed out')
    await env.upstream.waitForDisconnect(1, 10_000) // the stalled upstream call was abandoned, not left open (a hang detector)
  }, 60_000)

  test('timeout while peeking (headers and two frames, then silence before any content) → B answers', async () => {
    await env.app.deps.options.set('RelayTimeoutSeconds', 1)
    const { a, b } = await pair('fo-peek-stall', 14)
    env.upstream.setBehavior({ text: 'never', stall: 2 })
    upB.setBehavior({ text: ['from', ' B'] })
    const message = await anthropic.messages.stream({ model: 'fo-peek-stall', max_tokens: 32, messages: [{ role: 'user', content: 'hi' }] }).finalMessage()
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'from B' })
    const outcome = env.outcomes[0]!
    expect(outcome.attempts.map((x) => [x.channelId, x.status])).toEqual([[a, 0], [b, 200]])
    expect(outcome.attempts[0]!.error).toContain('timed out')
  })

  test('an error event inside a 200 stream before any content fails over too (anthropic stream)', async () => {
    const { a, b } = await pair('fo-stream-error', 14)
    env.upstream.setBehavior({ streamError: { type: 'overloaded_error', message: 'A overloaded mid-stream' } })
    upB.setBehavior({ text: ['from', ' B'] })
    const message = await anthropic.messages.stream({ model: 'fo-stream-error', max_tokens: 32, messages: [{ role: 'user', content: 'hi' }] }).finalMessage()
    expect(message.content).toHaveLength(1)
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'from B' })
    const outcome = env.outcomes[0]!
    expect(outcome.attempts.map((x) => x.channelId)).toEqual([a, b])
    expect(outcome.attempts[0]!.error).toContain('A overloaded mid-stream')
  })

  test('an error chunk inside a 200 chat stream before any content fails over too', async () => {
    const { a, b } = await pair('fo-chat-stream-error', 1)
    env.upstream.setBehavior({ streamError: { message: 'A broke in-stream' } })
    upB.setBehavior({ text: ['from', ' B'] })
    const final = await openai.chat.completions.stream({ model: 'fo-chat-stream-error', messages: [{ role: 'user', content: 'hi' }] }).finalChatCompletion()
    expect(final.choices[0]!.message.content).toBe('from B')
    expect(env.outcomes[0]!.attempts.map((x) => x.channelId)).toEqual([a, b])
  })
})

describe('errors that are not retried, and the end of the line', () => {
  test('upstream 400 is not retried: status and message reach the client in its own shape (chat)', async () => {
    await pair('fo-400-chat', 1)
    env.upstream.setBehavior({ error: { status: 400, message: "Invalid 'temperature': too hot" } })
    const res = await env.app.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}` },
      body: JSON.stringify({ model: 'fo-400-chat', messages: [{ role: 'user', content: 'hi' }] }),
    })
    const body = (await res.json()) as any
    expect(res.status).toBe(400)
    expect(body.error.message).toContain("Invalid 'temperature': too hot")
    expect(body.error.type).toBe('invalid_request_error')
    expect(body.error).toHaveProperty('param')
    expect(body.error).toHaveProperty('code')
    expect(upB.requests).toHaveLength(0)
  })

  test('upstream 400 through the Anthropic SDK: a BadRequestError with the upstream message', async () => {
    await pair('fo-400-msg', 14)
    env.upstream.setBehavior({ error: { status: 400, message: 'messages.0.content: bad block' } })
    const error = await anthropic.messages.create({ model: 'fo-400-msg', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }).catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.BadRequestError)
    expect(error.status).toBe(400)
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } })
    expect(error.error.error.message).toContain('messages.0.content: bad block')
    expect(upB.requests).toHaveLength(0)
  })

  test('all channels failing → 503 whose message carries the last upstream error', async () => {
    await pair('fo-all', 1)
    env.upstream.setBehavior({ error: { status: 500, message: 'A down' } })
    upB.setBehavior({ error: { status: 502, message: 'B down too' } })
    const error = await chat('fo-all').catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.APIError)
    expect(error.status).toBe(503)
    expect(error.message).toContain('B down too')
    expect(env.upstream.requests).toHaveLength(1)
    expect(upB.requests).toHaveLength(1)
  })

  test('a failed request is settled too: the outcome says not ok and lists every attempt', async () => {
    const { a, b } = await pair('fo-settle', 1)
    env.upstream.setBehavior({ error: { status: 500, message: 'A down' } })
    upB.setBehavior({ error: { status: 500, message: 'B down' } })
    await chat('fo-settle').catch(() => {})
    expect(env.outcomes).toHaveLength(1)
    const outcome = env.outcomes[0]!
    expect(outcome.ok).toBe(false)
    expect(outcome.status).toBe(503)
    expect(outcome.attempts.map((x) => x.channelId)).toEqual([a, b])
  })

  test('upstream keys never reach the client, even when the upstream error echoes them', async () => {
    await pair('fo-echo', 1)
    const echo = { status: 500, message: `Incorrect API key provided: ${UPSTREAM_KEY}. Key ${UPSTREAM_KEY} is bad` }
    env.upstream.setBehavior({ error: echo })
    upB.setBehavior({ error: echo })
    const res = await env.app.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}` },
      body: JSON.stringify({ model: 'fo-echo', messages: [{ role: 'user', content: 'hi' }] }),
    })
    const text = await res.text()
    expect(res.status).toBe(503)
    expect(text).toContain('Incorrect API key provided')
    expect(text).not.toContain(UPSTREAM_KEY)
    expect(text).not.toContain('secret-key-0123')

    // the same for a 400 (not retried) on the Anthropic route
    await pair('fo-echo-400', 14)
    env.upstream.setBehavior({ error: { status: 400, message: `bad key ${UPSTREAM_KEY}` } })
    const res2 = await env.app.fetch('/v1/messages', {
      method: 'POST',
      headers: { 'x-api-key': env.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'fo-echo-400', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
    })
    const text2 = await res2.text()
    expect(res2.status).toBe(400)
    expect(text2).toContain('bad key')
    expect(text2).not.toContain(UPSTREAM_KEY)
    expect(env.outcomes.map((o) => JSON.stringify(o.attempts)).join('')).not.toContain(UPSTREAM_KEY)
  })

  test('a key that does not look like sk-… is masked too', async () => {
    const plainKey = 'plainvendorkey0123456789abcdef'
    upB.setKeys([plainKey])
    try {
      await env.addChannel({ type: 1, name: 'plain', models: 'fo-plain', baseUrl: upB.url, keyText: plainKey })
      upB.setBehavior({ error: { status: 500, message: `key ${plainKey} over quota` } })
      const res = await env.app.fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}` },
        body: JSON.stringify({ model: 'fo-plain', messages: [{ role: 'user', content: 'hi' }] }),
      })
      const text = await res.text()
      expect(res.status).toBe(503)
      expect(text).toContain('over quota')
      expect(text).not.toContain(plainKey)
    } finally {
      upB.setKeys([UPSTREAM_KEY])
    }
  })
})
