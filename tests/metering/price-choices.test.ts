import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { account, chat, chatBody, logsOf, logsWhen, messages, settled, startMeteredEnv, userRow } from './env'

/**
 * What a client chooses that changes the vendor's price beyond its tokens: OpenAI's `service_tier`, hosted tools
 * billed per use (web search on every protocol), Anthropic's price-changing betas. Each is priced by an option
 * (reserved and billed) or refused with a 400 in the route's shape before dispatch; none ends as `unpaid`.
 */
let env: RelayEnv
const MODELS = ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-flash']
const OPTIONS = ['ServiceTierRatio', 'HostedToolPrice', 'AnthropicBetaRatio']

beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('ModelRatio', Object.fromEntries(MODELS.map((m) => [m, 1])))
  await env.app.deps.options.set('CompletionRatio', Object.fromEntries(MODELS.map((m) => [m, 1])))
  await env.app.deps.options.set('ChannelFailureThreshold', 1000)
  await env.addChannel({ type: 1, models: 'gpt-4o' })
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5' })
  await env.addChannel({ type: 24, models: 'gemini-2.5-flash' })
})
afterAll(() => env.stop())
beforeEach(async () => {
  env.upstream.reset()
  env.outcomes.length = 0
  env.upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 20 } })
  for (const name of OPTIONS) await env.app.deps.options.set(name, {})
})

const post = (path: string, headers: Record<string, string>, body: unknown) =>
  env.app.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
const responses = (key: string, body: unknown) => post('/v1/responses', { authorization: `Bearer ${key}` }, body)
const gemini = (key: string, body: unknown) => post('/v1beta/models/gemini-2.5-flash:generateContent', { 'x-goog-api-key': key }, body)
const geminiBody = (extra: Record<string, unknown> = {}) => ({ contents: [{ role: 'user', parts: [{ text: 'hello there' }] }], generationConfig: { maxOutputTokens: 100 }, ...extra })
const anthropicBody = (extra: Record<string, unknown> = {}) => ({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hello there' }], ...extra })

/** A 400 whose message names `what`, nothing sent upstream, nothing charged, one refusal row. */
async function refused(res: Response, userId: number, what: string): Promise<Record<string, any>> {
  expect(res.status).toBe(400)
  const body = (await res.json()) as Record<string, any>
  expect(JSON.stringify(body)).toContain(what)
  const rows = await logsWhen(env, userId, 1)
  expect(rows.map((r) => [r.type, r.quota])).toEqual([[5, 0]])
  expect(env.upstream.requests).toHaveLength(0)
  expect((await userRow(env, userId)).quota).toBe(100_000)
  return body
}

/** Served: billed `quota`, reserved at least `reserved`, no unpaid part; the row's `other`. */
async function billed(res: Response, userId: number, quota: number, reserved: number): Promise<Record<string, any>> {
  expect(res.status).toBe(200)
  await res.arrayBuffer()
  await settled(env, 1)
  const [row] = await logsOf(env, userId)
  const other = JSON.parse(row!.other)
  expect(row!.quota).toBe(quota)
  expect(other.reserved).toBeGreaterThanOrEqual(reserved)
  expect(other.unpaid).toBeUndefined()
  expect((await userRow(env, userId)).quota).toBe(100_000 - quota)
  return other
}

describe('service_tier', () => {
  test('priority is refused unless priced, on chat (OpenAI shape, param service_tier) and on Responses', async () => {
    const a = await account(env, 100_000)
    const body = await refused(await chat(env, a.key, chatBody('gpt-4o', { service_tier: 'priority' })), a.user.id, 'ServiceTierRatio')
    expect(body.error.param).toBe('service_tier')
    const b = await account(env, 100_000)
    await refused(await responses(b.key, { model: 'gpt-4o', input: 'hi', max_output_tokens: 100, service_tier: 'scale' }), b.user.id, 'service_tier')
  })

  test('priced by ServiceTierRatio: sent on, reserved and billed at the multiple', async () => {
    await env.app.deps.options.set('ServiceTierRatio', { priority: 2 })
    const { user, key } = await account(env, 100_000)
    const other = await billed(await chat(env, key, chatBody('gpt-4o', { service_tier: 'priority' })), user.id, 2 * 30, 2 * 100)
    expect(other.price.multiplier).toBe(2)
    expect(env.upstream.requests[0]!.json.service_tier).toBe('priority')
  })

  test('standard tiers (default, auto, flex) pass at the listed price', async () => {
    for (const tier of ['default', 'auto', 'flex']) {
      env.outcomes.length = 0
      const { user, key } = await account(env, 100_000)
      await billed(await chat(env, key, chatBody('gpt-4o', { service_tier: tier })), user.id, 30, 100)
    }
  })
})

describe('hosted tools billed per use', () => {
  test('web search is refused unless priced, on every protocol, in its own error shape', async () => {
    const cases: [(key: string) => Promise<Response>, string][] = [
      [(key) => chat(env, key, chatBody('gpt-4o', { web_search_options: {} })), 'web_search_options'],
      [(key) => responses(key, { model: 'gpt-4o', input: 'hi', tools: [{ type: 'web_search' }] }), 'tools[0]'],
      [(key) => messages(env, key, anthropicBody({ tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }] })), 'tools[0]'],
      [(key) => gemini(key, geminiBody({ tools: [{ google_search: {} }] })), 'tools[0].google_search'],
    ]
    for (const [send, field] of cases) {
      const { user, key } = await account(env, 100_000)
      const body = await refused(await send(key), user.id, 'HostedToolPrice')
      expect(JSON.stringify(body)).toContain(field)
    }
  })

  test('other per-use tools (file search, code interpreter, an unknown hosted type) are refused the same', async () => {
    for (const type of ['file_search', 'code_interpreter', 'image_generation', 'some_future_tool']) {
      const { user, key } = await account(env, 100_000)
      await refused(await responses(key, { model: 'gpt-4o', input: 'hi', tools: [{ type }] }), user.id, type)
    }
    const { user, key } = await account(env, 100_000)
    await refused(await messages(env, key, anthropicBody({ tools: [{ type: 'code_execution_20250825', name: 'code_execution' }] })), user.id, 'code_execution')
  })

  test('priced by HostedToolPrice: the fee is reserved and billed once per request on top of the tokens', async () => {
    await env.app.deps.options.set('HostedToolPrice', { web_search: 0.01 }) // 5,000 quota
    const { user, key } = await account(env, 100_000)
    const tools = [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }]
    const other = await billed(await messages(env, key, anthropicBody({ tools })), user.id, 30 + 5_000, 100 + 5_000)
    expect(other.fee).toBe(5_000)
    expect(env.upstream.requests[0]!.json.tools).toEqual(tools)
  })

  test('a fee the balance cannot hold is refused before dispatch', async () => {
    await env.app.deps.options.set('HostedToolPrice', { web_search: 1 }) // 500,000 quota
    const { user, key } = await account(env, 100_000)
    const res = await gemini(key, geminiBody({ tools: [{ googleSearch: {} }] }))
    expect(res.status).toBe(403)
    expect(env.upstream.requests).toHaveLength(0)
    expect((await userRow(env, user.id)).quota).toBe(100_000)
  })

  test('tools billed by their tokens alone pass unpriced (functions, web fetch, bash, text editor, Gemini code execution)', async () => {
    const tools = [
      { name: 'get_weather', input_schema: { type: 'object', properties: {} } },
      { type: 'web_fetch_20250910', name: 'web_fetch' },
      { type: 'bash_20250124', name: 'bash' },
      { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
    ]
    const a = await account(env, 100_000)
    await billed(await messages(env, a.key, anthropicBody({ tools })), a.user.id, 30, 100)
    env.outcomes.length = 0
    const b = await account(env, 100_000)
    await billed(await gemini(b.key, geminiBody({ tools: [{ codeExecution: {} }, { urlContext: {} }] })), b.user.id, 30, 100)
  })

  test('a hosted tool in a large body (its tools not parsed before dispatch otherwise) is found all the same', async () => {
    const { user, key } = await account(env, 100_000)
    const big = Array.from({ length: 60 }, (_, i) => ({ name: `tool_${i}`, description: 'x'.repeat(100), input_schema: { type: 'object', properties: {} } }))
    const tools = [...big, { type: 'web_search_20250305', name: 'web_search' }]
    const body = anthropicBody({ tools, messages: [{ role: 'user', content: 'y'.repeat(40_000) }] })
    await refused(await messages(env, key, body), user.id, `tools[${big.length}]`)
  })
})

describe('anthropic-beta', () => {
  const CONTEXT_1M = 'context-1m-2025-08-07'

  test('a price-changing beta (1M context, fast mode) is refused unless priced, in Anthropic error shape', async () => {
    for (const beta of [CONTEXT_1M, 'fast-mode-2026-02-01']) {
      const { user, key } = await account(env, 100_000)
      const res = await messages(env, key, anthropicBody(), { headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', 'anthropic-beta': `interleaved-thinking-2025-05-14,${beta}` } })
      const body = await refused(res, user.id, beta)
      expect(body.type).toBe('error')
      expect(body.error.type).toBe('invalid_request_error')
    }
  })

  test('the same flag in a Bedrock-style anthropic_beta body field is read too', async () => {
    const { user, key } = await account(env, 100_000)
    await refused(await messages(env, key, anthropicBody({ anthropic_beta: [CONTEXT_1M] })), user.id, CONTEXT_1M)
  })

  test('priced by AnthropicBetaRatio: forwarded, reserved and billed at the multiple', async () => {
    await env.app.deps.options.set('AnthropicBetaRatio', { [CONTEXT_1M]: 2 })
    const { user, key } = await account(env, 100_000)
    const headers = { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', 'anthropic-beta': CONTEXT_1M }
    await billed(await messages(env, key, anthropicBody(), { headers }), user.id, 2 * 30, 2 * 100)
    expect(env.upstream.requests[0]!.headers['anthropic-beta']).toBe(CONTEXT_1M)
  })

  test('betas that do not change the price pass', async () => {
    const { user, key } = await account(env, 100_000)
    const headers = { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', 'anthropic-beta': 'interleaved-thinking-2025-05-14' }
    await billed(await messages(env, key, anthropicBody(), { headers }), user.id, 30, 100)
  })
})
