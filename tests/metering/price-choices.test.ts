import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { account, chat, chatBody, logsOf, messages, settled, startMeteredEnv, userRow } from './env'

/**
 * What a client chooses that changes the vendor's price beyond its tokens: OpenAI's `service_tier`, hosted tools
 * billed per use (web search on every protocol), Anthropic's price-changing betas. Each is priced by an option
 * (reserved and billed) or taken out of the request before dispatch, said in the log row's warnings; none passes
 * unpriced, so none ends as `unpaid`.
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
const anthropicHeaders = (key: string, beta: string) => ({ headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', 'anthropic-beta': beta } })

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

/** Served at the listed price without the declined choice: the upstream's body, and the warning naming what was removed. */
async function servedWithout(res: Response, userId: number, removed: string): Promise<any> {
  const other = await billed(res, userId, 30, 100)
  expect(other.fee).toBeUndefined()
  expect(other.price.multiplier).toBeUndefined()
  expect((other.warnings as string[]).join('\n')).toContain(removed)
  expect(env.upstream.requests).toHaveLength(1)
  return env.upstream.requests[0]!
}

describe('service_tier', () => {
  test('priority or scale unpriced: taken out before dispatch, billed at the listed price, on chat and on Responses', async () => {
    const a = await account(env, 100_000)
    const sent = await servedWithout(await chat(env, a.key, chatBody('gpt-4o', { service_tier: 'priority' })), a.user.id, 'service_tier "priority"')
    expect(sent.json).not.toHaveProperty('service_tier')
    env.upstream.reset()
    env.outcomes.length = 0
    const b = await account(env, 100_000)
    const res = await responses(b.key, { model: 'gpt-4o', input: 'hi', max_output_tokens: 100, service_tier: 'scale' })
    expect((await servedWithout(res, b.user.id, 'service_tier "scale"')).json).not.toHaveProperty('service_tier')
  })

  test('removed from a large body: written again without it, the rest as sent', async () => {
    const { user, key } = await account(env, 100_000)
    const rest = chatBody('gpt-4o', { messages: [{ role: 'user', content: 'y'.repeat(40_000) }] })
    const sent = await servedWithout(await chat(env, key, { ...rest, service_tier: 'priority' }), user.id, 'service_tier "priority"')
    expect(sent.json).toEqual(expect.objectContaining(rest))
    expect(sent.json).not.toHaveProperty('service_tier')
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
  test('web search unpriced: taken out before dispatch on every protocol, the other tools kept', async () => {
    const fn = { type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }
    const cases: [(key: string) => Promise<Response>, string, (json: any) => void][] = [
      [(key) => chat(env, key, chatBody('gpt-4o', { web_search_options: {}, tools: [fn] })), 'web_search_options', (json) => {
        expect(json).not.toHaveProperty('web_search_options')
        expect(json.tools).toEqual([fn])
      }],
      [(key) => responses(key, { model: 'gpt-4o', input: 'hi', tools: [{ type: 'web_search' }, { type: 'function', name: 'f', parameters: {} }] }), 'tools[0] (web_search)', (json) => {
        expect(json.tools).toEqual([{ type: 'function', name: 'f', parameters: {} }])
      }],
      [(key) => messages(env, key, anthropicBody({ tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }] })), 'tools[0] (web_search)', (json) => {
        expect(json).not.toHaveProperty('tools')
      }],
      [(key) => gemini(key, geminiBody({ tools: [{ google_search: {} }, { codeExecution: {} }] })), 'tools[0].google_search', (json) => {
        expect(json.tools).toEqual([{ codeExecution: {} }])
      }],
    ]
    for (const [send, removed, check] of cases) {
      env.upstream.reset()
      env.outcomes.length = 0
      const { user, key } = await account(env, 100_000)
      check((await servedWithout(await send(key), user.id, removed)).json)
    }
  })

  test('other per-use tools (file search, code interpreter, image generation, an unknown hosted type) are taken out the same', async () => {
    for (const type of ['file_search', 'code_interpreter', 'image_generation', 'some_future_tool']) {
      env.upstream.reset()
      env.outcomes.length = 0
      const { user, key } = await account(env, 100_000)
      const sent = await servedWithout(await responses(key, { model: 'gpt-4o', input: 'hi', tools: [{ type }] }), user.id, type)
      expect(sent.json).not.toHaveProperty('tools')
    }
    env.upstream.reset()
    env.outcomes.length = 0
    const { user, key } = await account(env, 100_000)
    const sent = await servedWithout(await messages(env, key, anthropicBody({ tools: [{ type: 'code_execution_20250825', name: 'code_execution' }] })), user.id, 'code_execution')
    expect(sent.json).not.toHaveProperty('tools')
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

  test('a hosted tool in a large body (its tools not parsed before dispatch otherwise) is found and taken out, the rest byte for byte', async () => {
    const { user, key } = await account(env, 100_000)
    const big = Array.from({ length: 60 }, (_, i) => ({ name: `tool_${i}`, description: 'x'.repeat(100), input_schema: { type: 'object', properties: {} } }))
    const body = anthropicBody({ tools: [...big, { type: 'web_search_20250305', name: 'web_search' }], messages: [{ role: 'user', content: 'y'.repeat(40_000) }] })
    const sent = await servedWithout(await messages(env, key, body), user.id, `tools[${big.length}] (web_search)`)
    expect(sent.json.tools).toEqual(big)
    expect(sent.json.messages).toEqual(body.messages)
  })
})

describe('anthropic-beta', () => {
  const CONTEXT_1M = 'context-1m-2025-08-07'

  test('a price-changing beta (1M context, fast mode) unpriced: taken out of the header, the other flags forwarded', async () => {
    for (const beta of [CONTEXT_1M, 'fast-mode-2026-02-01']) {
      env.upstream.reset()
      env.outcomes.length = 0
      const { user, key } = await account(env, 100_000)
      const res = await messages(env, key, anthropicBody(), anthropicHeaders(key, `interleaved-thinking-2025-05-14,${beta}`))
      const sent = await servedWithout(res, user.id, beta)
      expect(sent.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14')
    }
  })

  test('the same flag in a Bedrock-style anthropic_beta body field is taken out too', async () => {
    const { user, key } = await account(env, 100_000)
    const sent = await servedWithout(await messages(env, key, anthropicBody({ anthropic_beta: [CONTEXT_1M, 'interleaved-thinking-2025-05-14'] })), user.id, CONTEXT_1M)
    expect(sent.json.anthropic_beta).toEqual(['interleaved-thinking-2025-05-14'])
  })

  test('priced by AnthropicBetaRatio: forwarded, reserved and billed at the multiple', async () => {
    await env.app.deps.options.set('AnthropicBetaRatio', { [CONTEXT_1M]: 2 })
    const { user, key } = await account(env, 100_000)
    await billed(await messages(env, key, anthropicBody(), anthropicHeaders(key, CONTEXT_1M)), user.id, 2 * 30, 2 * 100)
    expect(env.upstream.requests[0]!.headers['anthropic-beta']).toBe(CONTEXT_1M)
  })

  test('betas that do not change the price pass', async () => {
    const { user, key } = await account(env, 100_000)
    await billed(await messages(env, key, anthropicBody(), anthropicHeaders(key, 'interleaved-thinking-2025-05-14')), user.id, 30, 100)
    expect(env.upstream.requests[0]!.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14')
  })
})
