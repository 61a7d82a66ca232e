/**
 * AdvancedCustom (type 58), new-api's operator-described upstream: routes in the channel's setting
 * (`advanced_custom.advanced_routes`), each taking one client path to an upstream path, converted or not, with the
 * key sent where the route says. The fake serves OpenAI chat only at its own path and only with the key in its own
 * header, as a custom upstream would.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { account, logsWhen, startMeteredEnv } from '../metering/env'
import type { RelayEnv } from '../helpers/relay-env'
import { as, login } from '../helpers/accounts'
import { call } from '../helpers/test-app'

const KEY = 'custom-key-0123456789'
const received: { path: string; search: string; body: any }[] = []

const fake = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const url = new URL(request.url)
    if (request.headers.get('x-token') !== `tok ${KEY}`) return Response.json({ error: { message: 'bad token', type: 'auth' } }, { status: 401 })
    if (url.pathname !== '/gw/chat/run') return Response.json({ error: { message: 'no such path' } }, { status: 404 })
    const body = (await request.json()) as any
    received.push({ path: url.pathname, search: url.search, body })
    const usage = { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 }
    if (!body.stream) return Response.json({ id: 'c1', object: 'chat.completion', created: 1, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: 'Hello custom' }, finish_reason: 'stop' }], usage })
    const chunk = (delta: unknown, extra: object = {}) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`
    const text = [chunk({ role: 'assistant', content: 'Hello ' }), chunk({ content: 'custom' }), `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`, `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [], usage })}\n\n`, 'data: [DONE]\n\n'].join('')
    return new Response(text, { headers: { 'content-type': 'text/event-stream' } })
  },
})

const auth = { type: 'header', name: 'X-Token', value: 'tok {api_key}' }
const routes = {
  advanced_custom: {
    advanced_routes: [
      { incoming_path: '/v1/chat/completions', upstream_path: '/gw/chat/run?v=2', converter: 'none', auth },
      { incoming_path: '/v1/messages', upstream_path: '/gw/chat/run', converter: 'anthropic_messages_to_openai_chat_completions', auth, models: ['re:^house-'] },
    ],
  },
}

let env: RelayEnv
let key: string
let userId: number
let root: string
beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('ChannelPrivateNetworksAllowed', true)
  await env.app.deps.options.set('ModelRatio', { 'house-model': 1 })
  root = await login(env.app)
  const created = await call(env.app, 'POST', '/api/channel/', { type: 58, name: 'custom', key: KEY, base_url: `http://127.0.0.1:${fake.port}`, models: 'house-model', setting: routes }, as(root))
  expect(created.status).toBe(200)
  const payer = await account(env, 10_000_000)
  key = payer.key
  userId = payer.user.id
})
afterAll(async () => {
  await env.stop()
  fake.stop(true)
})

describe('AdvancedCustom routes', () => {
  test('an OpenAI chat client on a `none` route: its body passed through to the route\'s path and query, the key in the route\'s header; streamed and not, billed', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
    const once = await openai.chat.completions.create({ model: 'house-model', messages: [{ role: 'user', content: 'Hi' }] })
    expect(once.choices[0]!.message.content).toBe('Hello custom')
    expect(received.at(-1)).toMatchObject({ path: '/gw/chat/run', search: '?v=2', body: { model: 'house-model', messages: [{ role: 'user', content: 'Hi' }] } })
    const stream = await openai.chat.completions.create({ model: 'house-model', stream: true, messages: [{ role: 'user', content: 'Hi' }] })
    let text = ''
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
    expect(text).toBe('Hello custom')
    const rows = await logsWhen(env, userId, 2)
    expect(rows.map((r) => [r.promptTokens, r.completionTokens])).toEqual([[11, 3], [11, 3]])
  })

  test('an Anthropic client on a converting route: sent as OpenAI chat, answered as Messages, streamed and not, billed', async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: env.app.url, maxRetries: 0 })
    const once = await anthropic.messages.create({ model: 'house-model', max_tokens: 50, system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] })
    expect(once.content).toMatchObject([{ type: 'text', text: 'Hello custom' }])
    expect(once.usage).toMatchObject({ input_tokens: 11, output_tokens: 3 })
    expect(received.at(-1)!.search).toBe('')
    expect(received.at(-1)!.body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' })
    const final = await anthropic.messages.stream({ model: 'house-model', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] }).finalMessage()
    expect(final.content).toMatchObject([{ type: 'text', text: 'Hello custom' }])
    expect(final.usage).toMatchObject({ input_tokens: 11, output_tokens: 3 })
    const rows = await logsWhen(env, userId, 4)
    expect(rows.slice(-2).map((r) => r.completionTokens)).toEqual([3, 3])
  })

  test('a client protocol no route serves is refused, uncharged, and nothing is sent', async () => {
    const before = received.length
    const res = await env.app.fetch('/v1/responses', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'house-model', input: 'Hi' }) })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(JSON.stringify(await res.json())).toContain('no route')
    expect(received.length).toBe(before)
    const rows = await logsWhen(env, userId, 5)
    expect(rows.at(-1)!.quota).toBe(0)
  })

  test('routes are checked on save: a 400 naming setting', async () => {
    const bad = async (setting: unknown) => call(env.app, 'POST', '/api/channel/', { type: 58, name: 'bad', key: 'k', base_url: 'http://127.0.0.1:1', models: 'm', setting }, as(root))
    for (const setting of [
      {},
      { advanced_custom: { advanced_routes: [{ incoming_path: '/v1/nothing', upstream_path: '/x' }] } },
      { advanced_custom: { advanced_routes: [{ incoming_path: '/v1/messages', upstream_path: 'x' }] } },
      { advanced_custom: { advanced_routes: [{ incoming_path: '/v1/messages', upstream_path: '/x', converter: 'openai_chat_completions_to_anthropic_messages' }] } },
      { advanced_custom: { advanced_routes: [{ incoming_path: '/v1/messages', upstream_path: '/x', auth: { type: 'cookie' } }] } },
    ]) {
      const res = await bad(setting)
      expect(res.status).toBe(400)
      expect(res.body.data.param).toBe('setting')
    }
  })
})
