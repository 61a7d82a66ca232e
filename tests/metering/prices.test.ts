import { describe, expect, test } from 'bun:test'
import { createOptionRepo } from '../../src/db/sqlite/repos/options'
import { openDatabase } from '../../src/db/sqlite/client'
import { migrate } from '../../src/db/sqlite/migrate'
import { createOptionStore } from '../../src/options/store'
import { estimateQuota, findPrice, priceInUsd, quotaFor, requirePrice } from '../../src/metering/prices'

function options() {
  const db = openDatabase(':memory:')
  migrate(db)
  return createOptionStore(createOptionRepo(db), {}) // a new database: no stored values
}
const usage = (noCache: number, cacheRead: number, cacheWrite: number, text: number, reasoning = 0) => ({
  input: { noCache, cacheRead, cacheWrite },
  output: { text, reasoning },
})

describe('the shipped table', () => {
  test('gpt-4o: $2.50 in, $10 out, $1.25 cached → ratio 1.25, completion 4, cache 0.5', () => {
    expect(findPrice(options(), 'gpt-4o', 'default')).toEqual({ mode: 'ratio', model: 'gpt-4o', ratio: 1.25, completion: 4, cacheRead: 0.5, cacheWrite: 1, group: 1 })
  })
  test('claude-sonnet-4-5: ratio 1.5, completion 5, cache read 0.1, cache write 1.25', () => {
    expect(findPrice(options(), 'claude-sonnet-4-5', 'default')).toMatchObject({ ratio: 1.5, completion: 5, cacheRead: 0.1, cacheWrite: 1.25 })
  })
  test('dated and vendor-prefixed names find their family', () => {
    const o = options()
    expect(findPrice(o, 'claude-sonnet-4-5-20250929', 'default')).toMatchObject({ ratio: 1.5 })
    expect(findPrice(o, 'gpt-4o-2024-08-06', 'default')).toMatchObject({ ratio: 1.25 })
    expect(findPrice(o, 'models/gemini-2.5-flash', 'default')).toMatchObject({ ratio: 0.15 })
    expect(findPrice(o, 'openai/gpt-4o-mini', 'default')).toMatchObject({ ratio: 0.075, completion: 4 })
  })
  test('every shipped model lists well-formed, non-negative ratios', () => {
    const o = options()
    for (const model of ['gpt-5', 'o3', 'claude-opus-4-1', 'claude-haiku-4-5', 'gemini-2.5-pro', 'deepseek-chat', 'deepseek-reasoner']) {
      const p = findPrice(o, model, 'default')
      expect(p?.mode).toBe('ratio')
      if (p?.mode === 'ratio') for (const n of [p.ratio, p.completion, p.cacheRead, p.cacheWrite]) expect(n).toBeGreaterThanOrEqual(0)
    }
  })
})

describe('options override the table', () => {
  test('ModelRatio, CompletionRatio, CacheRatio, CreateCacheRatio per model; unknown cache ratios default to 1', async () => {
    const o = options()
    await o.set('ModelRatio', { 'my-model': 3 })
    await o.set('CompletionRatio', { 'my-model': 2 })
    expect(findPrice(o, 'my-model', 'default')).toEqual({ mode: 'ratio', model: 'my-model', ratio: 3, completion: 2, cacheRead: 1, cacheWrite: 1, group: 1 })
    await o.set('ModelRatio', { 'gpt-4o': 2 })
    await o.set('CacheRatio', { 'gpt-4o': 0.25 })
    await o.set('CreateCacheRatio', { 'gpt-4o': 1.5 })
    expect(findPrice(o, 'gpt-4o', 'default')).toMatchObject({ ratio: 2, completion: 4, cacheRead: 0.25, cacheWrite: 1.5 })
  })
  test('ModelPrice wins: a fixed US$ per call', async () => {
    const o = options()
    await o.set('ModelPrice', { 'gpt-4o': 0.02 })
    const p = findPrice(o, 'gpt-4o', 'default')!
    expect(p).toEqual({ mode: 'call', model: 'gpt-4o', usd: 0.02, group: 1 })
    expect(quotaFor(p, usage(1_000_000, 0, 0, 1_000_000), 500_000)).toBe(10_000)
  })
  test('GroupRatio multiplies; a group not listed pays 1', async () => {
    const o = options()
    await o.set('GroupRatio', { default: 1, vip: 0.5 })
    expect(findPrice(o, 'gpt-4o', 'vip')!.group).toBe(0.5)
    expect(findPrice(o, 'gpt-4o', 'other')!.group).toBe(1)
  })
  test('bad tables are refused with a message naming the entry', () => {
    const o = options()
    expect(() => o.set('ModelRatio', { 'gpt-4o': -1 })).toThrow('"gpt-4o" must be a non-negative number')
    expect(() => o.set('ModelPrice', { x: 'cheap' })).toThrow('must be a non-negative number')
    expect(() => o.set('GroupRatio', '[1,2]')).toThrow('a JSON object')
    expect(() => o.set('GroupRateLimits', { vip: { token_rpm: 1.5 } })).toThrow('non-negative integer')
    expect(() => o.set('GroupRateLimits', { vip: { rpm: 1 } })).toThrow('is not one of')
  })
})

describe('quota arithmetic', () => {
  test('ratio mode: input, cache read, cache write and output (reasoning included) each at their ratio', () => {
    const p = findPrice(options(), 'claude-sonnet-4-5', 'default')!
    // (100 + 1000×0.1 + 200×1.25 + 50×5) × 1.5 = 700 × 1.5
    expect(quotaFor(p, usage(100, 1000, 200, 40, 10), 500_000)).toBe(1050)
  })
  test('ratio 1 = US$2 per million input tokens = 1 quota per token at 500,000 per dollar', async () => {
    const o = options()
    await o.set('ModelRatio', { unit: 1 })
    const p = findPrice(o, 'unit', 'default')!
    expect(quotaFor(p, usage(1_000_000, 0, 0, 0), 500_000)).toBe(1_000_000)
    expect(priceInUsd(p, 500_000)).toMatchObject({ input: 2, output: 2 })
  })
  test('a tiny request costs at least 1', () => {
    const p = findPrice(options(), 'gpt-5-nano', 'default')!
    expect(quotaFor(p, usage(1, 0, 0, 0), 500_000)).toBe(1)
    expect(quotaFor(p, usage(0, 0, 0, 0), 500_000)).toBe(0)
  })
  test('the estimate prices the whole prompt at the input price plus the output allowance', () => {
    const p = findPrice(options(), 'gpt-4o', 'default')!
    expect(estimateQuota(p, 100, 50, 500_000)).toBe(Math.round((100 + 50 * 4) * 1.25))
  })
  test('no price → model_price_error, unless SelfUseModeEnabled (then free)', async () => {
    const o = options()
    expect(() => requirePrice(o, 'nobody-prices-me', 'default')).toThrow('has no price')
    await o.set('SelfUseModeEnabled', true)
    const free = requirePrice(o, 'nobody-prices-me', 'default')
    expect(free.mode).toBe('free')
    expect(quotaFor(free, usage(1000, 0, 0, 1000), 500_000)).toBe(0)
  })
})

describe('remembered prices', () => {
  test('a price found once is served from memory until a price option changes, then the new one applies', async () => {
    const o = options()
    expect(findPrice(o, 'gpt-4o', 'vip')).toMatchObject({ ratio: 1.25, group: 1 })
    expect(findPrice(o, 'my-model', 'vip')).toBeUndefined()
    await o.set('ModelRatio', { 'my-model': 3 })
    await o.set('GroupRatio', { vip: 0.5 })
    expect(findPrice(o, 'my-model', 'vip')).toMatchObject({ ratio: 3, group: 0.5 })
    expect(findPrice(o, 'gpt-4o', 'vip')).toMatchObject({ ratio: 1.25, group: 0.5 })
    await o.set('ModelPrice', { 'my-model': 0.02 })
    expect(findPrice(o, 'my-model', 'vip')).toEqual({ mode: 'call', model: 'my-model', usd: 0.02, group: 0.5 })
  })
})
