import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { as, login } from '../helpers/accounts'
import { call } from '../helpers/test-app'
import { account, chat, logsOf, messages, settled, startMeteredEnv, userRow } from './env'

/**
 * ModelTierPricing (new-api's tiered billing): a prompt of 1,000 tokens or more (cache reads and writes included)
 * is billed at the second tier; below, at the first. Exact to the unit on both sides of the threshold, for chat and
 * Messages, streamed and not; the reservation takes the dearest tier the prompt can reach.
 */
let env: RelayEnv
let root: Record<string, string>

const TIERS = {
  enabled: true,
  basis: 'prompt_tokens',
  tiers: [
    // ratio 1 (US$2 per 1M input), output ×4, cache reads ×0.1
    { min_tokens: 0, max_tokens: 1000, input_price: 2, completion_price: 8, cache_read_price: 0.2 },
    // ratio 2, output ×3, cache reads ×0.1, cache writes at CreateCacheRatio (1.25) of this tier's input
    { min_tokens: 1000, input_price: 4, completion_price: 12, cache_read_price: 0.4 },
  ],
}

beforeAll(async () => {
  env = await startMeteredEnv()
  root = as(await login(env.app))
  await env.app.deps.options.set('ChannelFailureThreshold', 1000)
  await env.app.deps.options.set('ModelTierPricing', { 'long-gpt': TIERS, 'long-claude': TIERS })
  // a flat price the tiers win over
  await env.app.deps.options.set('ModelPrice', { 'long-gpt': 1 })
  await env.app.deps.options.set('CreateCacheRatio', { 'long-claude': 1.25 })
  await env.addChannel({ type: 1, models: 'long-gpt', name: 'openai' })
  await env.addChannel({ type: 14, models: 'long-claude', name: 'anthropic' })
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
})

const other = (row: { other: string }) => JSON.parse(row.other)

async function billedFor(send: (key: string) => Promise<Response>, usage: Record<string, number>) {
  const { user, key } = await account(env, 1_000_000)
  env.upstream.setBehavior({ text: 'ok', usage: { output: 10, ...usage } as never })
  const res = await send(key)
  expect(res.status).toBe(200)
  await res.text()
  await settled(env, 1)
  const [log] = await logsOf(env, user.id)
  expect((await userRow(env, user.id)).quota).toBe(1_000_000 - log!.quota)
  return { quota: log!.quota, other: other(log as never) }
}

const chatTo = (stream: boolean) => (key: string) =>
  chat(env, key, { model: 'long-gpt', max_tokens: 100, stream, ...(stream ? { stream_options: { include_usage: true } } : {}), messages: [{ role: 'user', content: 'hi' }] })
const messagesTo = (stream: boolean) => (key: string) => messages(env, key, { model: 'long-claude', max_tokens: 100, stream, messages: [{ role: 'user', content: 'hi' }] })

describe('billed at the tier of the prompt the upstream counted', () => {
  for (const stream of [false, true]) {
    test(`chat${stream ? ', streamed' : ''}: 999 prompt tokens at the first tier, 1,000 at the second`, async () => {
      const below = await billedFor(chatTo(stream), { input: 899, cacheRead: 100 })
      // (899 + 100 × 0.1 + 10 × 4) × 1
      expect(below.quota).toBe(949)
      expect(below.other).toMatchObject({ tier_index: 0, tier_min_tokens: 0, tier_max_tokens: 1000, tier_basis_value: 999, price: { mode: 'ratio', ratio: 1, completion: 4 } })
      expect(below.other.price.tiers).toBeUndefined()
      env.outcomes.length = 0
      const above = await billedFor(chatTo(stream), { input: 900, cacheRead: 100 })
      // (900 + 100 × 0.1 + 10 × 3) × 2
      expect(above.quota).toBe(1880)
      expect(above.other).toMatchObject({ tier_index: 1, tier_min_tokens: 1000, tier_basis_value: 1000, price: { ratio: 2, completion: 3 } })
      expect(above.other.tier_max_tokens).toBeUndefined()
    })

    test(`Messages${stream ? ', streamed' : ''}: cache reads and writes count toward the threshold and are priced by the tier`, async () => {
      const below = await billedFor(messagesTo(stream), { input: 799, cacheRead: 100, cacheWrite: 100 })
      // (799 + 100 × 0.1 + 100 × 1.25 + 10 × 4) × 1 = 974
      expect(below.quota).toBe(974)
      expect(below.other.tier_index).toBe(0)
      env.outcomes.length = 0
      const above = await billedFor(messagesTo(stream), { input: 800, cacheRead: 100, cacheWrite: 100 })
      // (800 + 100 × 0.1 + 100 × 1.25 + 10 × 3) × 2 = 1930
      expect(above.quota).toBe(1930)
      expect(above.other.tier_index).toBe(1)
    })
  }
})

describe('the reservation', () => {
  /** ~850 prompt tokens: below the threshold as we count, within reach of it as another tokenizer may */
  const nearThreshold = { model: 'long-gpt', max_tokens: 100, messages: [{ role: 'user', content: 'hello '.repeat(850) }] }

  test('a prompt near the threshold is reserved at the dearest tier it can reach; billed at the tier it did', async () => {
    const { user, key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 860, output: 10 } })
    expect((await chat(env, key, nearThreshold)).status).toBe(200)
    const [log] = await logsOf(env, user.id)
    const row = other(log as never)
    // the second tier's input (×2) and output (10 × 3 × 2 = first tier's 4 × 1 … at most 6 per token): ≥ (850 + 100 × 3) × 2
    expect(row.reserved).toBeGreaterThanOrEqual((850 + 100 * 3) * 2)
    expect(log!.quota).toBe(860 + 10 * 4)
  })

  test('a balance that covers the first tier but not the dearest reachable one is refused before dispatch, nothing taken', async () => {
    const balance = (850 + 100 * 4) * 1 + 300 // the first tier's estimate, with room
    const { user, key } = await account(env, balance)
    const res = await chat(env, key, nearThreshold)
    expect(res.status).toBe(403)
    expect(((await res.json()) as any).error.message).toContain('insufficient quota')
    expect(env.upstream.requests).toHaveLength(0)
    expect((await userRow(env, user.id)).quota).toBe(balance)
  })

  test('a short prompt is reserved at the first tier only', async () => {
    const { user, key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 5, output: 10 } })
    expect((await chat(env, key, { model: 'long-gpt', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
    const [log] = await logsOf(env, user.id)
    // at most the first tier: (prompt + 100 × 4) × 1, far from the second tier's (… + 100 × 3) × 2
    expect(other(log as never).reserved).toBeLessThan(600)
  })
})

describe('the option', () => {
  const put = (value: unknown) => call(env.app, 'PUT', '/api/option/', { key: 'ModelTierPricing', value }, root)
  const tier = (min: number, max?: number) => ({ min_tokens: min, ...(max === undefined ? {} : { max_tokens: max }), input_price: 2, completion_price: 8 })

  test.each([
    ['a first tier not at 0', [tier(1, 100), tier(100)], 'first tier'],
    ['a gap', [tier(0, 100), tier(101)], 'contiguous'],
    ['a last tier with max_tokens', [tier(0, 100), tier(100, 200)], 'last tier'],
    ['a negative price', [{ min_tokens: 0, input_price: -1 }], 'non-negative'],
    ['output priced beside a free input', [{ min_tokens: 0, input_price: 0, completion_price: 1 }], 'input_price is 0'],
    ['an unknown field', [{ min_tokens: 0, input_price: 1, price: 3 }], 'unknown field'],
  ])('%s is refused with a 400 naming it', async (_name, tiers, words) => {
    const res = await put({ 'some-model': { enabled: true, basis: 'prompt_tokens', tiers } })
    expect(res.status).toBe(400)
    expect(res.body.message).toContain(words)
    expect(env.app.deps.options.get<Record<string, unknown>>('ModelTierPricing')['some-model']).toBeUndefined()
  })

  test('an unknown basis and an enabled model without tiers are refused', async () => {
    expect((await put({ m: { enabled: true, basis: 'completion_tokens', tiers: [tier(0)] } })).status).toBe(400)
    expect((await put({ m: { enabled: true, tiers: [] } })).status).toBe(400)
  })

  test('a disabled config prices nothing: the model falls back to its flat price', async () => {
    const res = await put({ 'long-gpt': { ...TIERS, enabled: false }, 'long-claude': TIERS })
    expect(res.status).toBe(200)
    const { user, key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 5, output: 10 } })
    expect((await chat(env, key, { model: 'long-gpt', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
    expect((await logsOf(env, user.id))[0]!.quota).toBe(500_000) // ModelPrice: US$1 a call
    await put({ 'long-gpt': TIERS, 'long-claude': TIERS })
  })
})
