import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import { hasProxies, SOCKS_PROXY_EGRESS, startHttpProxy, startSocksProxy, type ProxyServer } from '../helpers/proxy-servers'
import { startRelayEnv, UPSTREAM_KEY, type RelayEnv } from '../helpers/relay-env'

/**
 * new-api's per-channel overrides, checked at the fake upstream: the param override's operations and conditions,
 * the system prompt (added, or put in front with the override flag), header overrides with the key and the
 * request id, status-code mapping deciding failover, and a channel's HTTP proxy. A channel without overrides still
 * sends the client's bytes as they came.
 */
let env: RelayEnv
let upB: FakeUpstream
let openai: OpenAI
let anthropic: Anthropic

beforeAll(async () => {
  env = await startRelayEnv()
  upB = await startFakeUpstream({ keys: [UPSTREAM_KEY] })
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

const json = (value: unknown) => JSON.stringify(value)

describe('param override', () => {
  test('operations set, delete and move on the body as sent; a condition decides whether one runs', async () => {
    const model = 'ov-ops'
    const ops = [
      { path: 'temperature', mode: 'set', value: 0.2 },
      { path: 'top_p', mode: 'delete' },
      { mode: 'move', from: 'user', to: 'metadata.end_user' },
      { path: 'max_tokens', mode: 'set', value: 64, keep_origin: true },
      { path: 'seed', mode: 'set', value: 7, conditions: [{ path: 'model', mode: 'prefix', value: 'ov-' }] },
      { path: 'n', mode: 'set', value: 3, conditions: [{ path: 'model', mode: 'full', value: 'other' }] },
    ]
    await env.addChannel({ type: 1, models: model, paramOverride: json({ operations: ops }) })
    await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], temperature: 1, top_p: 0.5, user: 'u-1', max_tokens: 20 })
    const sent = env.upstream.requests[0]!.json
    expect(sent).toMatchObject({ temperature: 0.2, max_tokens: 20, seed: 7, metadata: { end_user: 'u-1' } })
    expect(sent).not.toHaveProperty('top_p')
    expect(sent).not.toHaveProperty('user')
    expect(sent).not.toHaveProperty('n')
  })

  test("new-api's first form (an object) sets top-level fields, after conversion (Anthropic client → OpenAI channel)", async () => {
    const model = 'ov-merge'
    await env.addChannel({ type: 1, models: model, paramOverride: json({ reasoning_effort: 'low', temperature: 0 }) })
    await anthropic.messages.create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
    const sent = env.upstream.requests[0]!
    expect(sent.path).toBe('/v1/chat/completions')
    expect(sent.json).toMatchObject({ reasoning_effort: 'low', temperature: 0 })
  })

  test('a block operation refuses the request at that channel with a 400; nothing is sent', async () => {
    const model = 'ov-block'
    await env.addChannel({ type: 1, models: model, paramOverride: json({ operations: [{ mode: 'block', conditions: [{ path: 'stream', mode: 'full', value: true }] }] }) })
    const error = await openai.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] }).catch((e: { status: number }) => e)
    expect((error as { status: number }).status).toBe(400)
    expect(env.upstream.requests).toHaveLength(0)
    await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
    expect(env.upstream.requests).toHaveLength(1)
  })
})

describe('system prompt', () => {
  test('added where the request has none, in the upstream protocol (OpenAI messages, from an Anthropic client)', async () => {
    const model = 'ov-sys-add'
    await env.addChannel({ type: 1, models: model, setting: json({ system_prompt: 'You are terse.' }) })
    await anthropic.messages.create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
    expect(env.upstream.requests[0]!.json.messages[0]).toEqual({ role: 'system', content: 'You are terse.' })
  })

  test("the request's own prompt is left alone without the flag, and gets the channel's in front with it (Anthropic channel)", async () => {
    const keep = 'ov-sys-keep'
    const front = 'ov-sys-front'
    await env.addChannel({ type: 14, models: keep, setting: json({ system_prompt: 'CHANNEL' }) })
    await env.addChannel({ type: 14, models: front, setting: json({ system_prompt: 'CHANNEL', system_prompt_override: true }) })
    await anthropic.messages.create({ model: keep, max_tokens: 10, system: 'MINE', messages: [{ role: 'user', content: 'hi' }] })
    await anthropic.messages.create({ model: front, max_tokens: 10, system: 'MINE', messages: [{ role: 'user', content: 'hi' }] })
    expect(env.upstream.requests.map((r) => r.json.system)).toEqual(['MINE', 'CHANNEL\nMINE'])
  })
})

test('header override: the key and the request id as placeholders, an existing header replaced', async () => {
  const model = 'ov-headers'
  await env.addChannel({ type: 1, models: model, headerOverride: json({ 'X-Upstream-Key': 'k={api_key}', 'X-Trace': '{request_id}', 'User-Agent': 'tollgate-test' }) })
  const { response } = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }).withResponse()
  const headers = env.upstream.requests[0]!.headers
  expect(headers['x-upstream-key']).toBe(`k=${UPSTREAM_KEY}`)
  expect(headers['x-trace']).toBe(response.headers.get('x-request-id')!)
  expect(headers['user-agent']).toBe('tollgate-test')
})

test('a channel with only a header override still sends the client’s bytes exactly', async () => {
  const model = 'ov-bytes'
  await env.addChannel({ type: 1, models: model, headerOverride: json({ 'X-A': '1' }) })
  const body = `{"model":"${model}",  "messages":[{"role":"user","content":"hi  there"}] ,"temperature":0.50}`
  const res = await fetch(`${env.app.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' }, body })
  expect(res.status).toBe(200)
  expect(env.upstream.requests[0]!.body).toBe(body)
})

describe('status code mapping', () => {
  test('a 400 read as 500 fails over to the next channel; unmapped, the same 400 ends the request', async () => {
    for (const [model, mapping, expected] of [
      ['ov-map', json({ 400: '500' }), 'from B'],
      ['ov-nomap', '', 400],
    ] as const) {
      env.upstream.reset()
      upB.reset()
      env.outcomes.length = 0
      const a = await env.addChannel({ type: 1, models: model, priority: 10, statusCodeMapping: mapping })
      await env.addChannel({ type: 1, models: model, priority: 0, baseUrl: upB.url })
      env.upstream.setBehavior({ error: { status: 400, message: 'A has its own trouble' } })
      upB.setBehavior({ text: 'from B' })
      const result = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }).then((c) => c.choices[0]!.message.content, (e: { status: number }) => e.status)
      expect(result).toBe(expected)
      const first = env.outcomes[0]!.attempts[0]!
      expect(first.channelId).toBe(a)
      if (mapping) expect(first).toMatchObject({ status: 500, error: expect.stringContaining('upstream 400 (read as 500)') })
      expect(upB.requests).toHaveLength(mapping ? 1 : 0)
    }
  })
})

describe.skipIf(!hasProxies())('channel proxy', () => {
  let proxy: ProxyServer
  let socks: ProxyServer
  beforeAll(async () => {
    ;[proxy, socks] = await Promise.all([startHttpProxy(), startSocksProxy()])
  })
  afterAll(() => Promise.all([proxy.stop(), socks.stop()]))

  test('a channel with an HTTP proxy reaches the upstream through it (its Via header); the others go direct', async () => {
    await env.addChannel({ type: 1, models: 'ov-proxy', setting: json({ proxy: proxy.url }) })
    await env.addChannel({ type: 1, models: 'ov-direct' })
    await openai.chat.completions.create({ model: 'ov-proxy', messages: [{ role: 'user', content: 'hi' }] })
    await openai.chat.completions.create({ model: 'ov-direct', messages: [{ role: 'user', content: 'hi' }] })
    const [proxied, direct] = env.upstream.requests
    expect(proxied!.headers.via).toContain('tinyproxy')
    expect(direct!.headers.via).toBeUndefined()
  })

  test('a channel with a SOCKS5 proxy reaches the upstream through it (the connection comes from the proxy’s egress address), streamed and not', async () => {
    await env.addChannel({ type: 1, models: 'ov-socks', setting: json({ proxy: socks.url }) })
    await env.addChannel({ type: 1, models: 'ov-socks-direct' })
    const before = env.upstream.requests.length
    const answer = await openai.chat.completions.create({ model: 'ov-socks', messages: [{ role: 'user', content: 'hi' }] })
    expect(answer.choices[0]!.message.content).toBeTruthy()
    const stream = await openai.chat.completions.create({ model: 'ov-socks', messages: [{ role: 'user', content: 'hi' }], stream: true })
    let text = ''
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
    expect(text).toBeTruthy()
    await openai.chat.completions.create({ model: 'ov-socks-direct', messages: [{ role: 'user', content: 'hi' }] })
    const [plain, streamed, direct] = env.upstream.requests.slice(before)
    expect([plain!.model, streamed!.model, direct!.model]).toEqual(['ov-socks', 'ov-socks', 'ov-socks-direct'])
    expect([plain!.peer, streamed!.peer]).toEqual([SOCKS_PROXY_EGRESS, SOCKS_PROXY_EGRESS])
    expect(direct!.peer).toBe('127.0.0.1')
  })
})
