import { describe, expect, test } from 'bun:test'
import { createLocalLimits } from '../../src/coord/local-limits'
import { createLocalLogin } from '../../src/coord/local-login'
import { createKeyCache } from '../../src/db/repos/key-cache'
import type { TokenRow } from '../../src/db/repos'
import { createKeyRotation } from '../../src/relay/routing/key-rotation'
import { countRequestTokens, tokenCountCache } from '../../src/relay/meter/tokenize'
import type { IrRequest } from '../../src/ir'

/**
 * Issue #28, bounded state: each in-memory structure a client's values reach has a bound and an eviction rule.
 * (Metrics labels: tests/ops/metrics-labels.test.ts; the whole process under a flood: soak.test.ts.)
 */
describe('the unknown-key cache (db/repos/key-cache.ts)', () => {
  const row = (id: number) => ({ id, userId: 1 }) as TokenRow

  test('a flood of made-up keys keeps at most maxUnknown, the newest; known keys are never pushed out', () => {
    const cache = createKeyCache(100)
    cache.remember('known', row(7))
    for (let i = 0; i < 10_000; i++) cache.remember(`made-up-${i}`, undefined)
    expect(cache.size).toEqual({ known: 1, unknown: 100 })
    expect(cache.get('known')?.id).toBe(7)
    // oldest out first: the latest misses are the ones remembered (a client retrying a bad key costs no query)
    expect(cache.get('made-up-9999')).toBeNull()
    expect(cache.get('made-up-9900')).toBeNull()
    expect(cache.get('made-up-9899')).toBeUndefined()
    expect(cache.get('made-up-0')).toBeUndefined()
  })

  test('a key created for a remembered miss replaces it; forgetting a hash drops the miss', () => {
    const cache = createKeyCache(2)
    cache.remember('a', undefined)
    cache.remember('a', row(1))
    expect(cache.get('a')?.id).toBe(1)
    cache.remember('b', undefined)
    cache.forgetHash('b')
    expect(cache.get('b')).toBeUndefined()
    expect(cache.size).toEqual({ known: 1, unknown: 0 })
  })
})

describe('the token-count cache (relay/meter/meter/tokenize.ts)', () => {
  const request = (texts: string[]): IrRequest => ({ model: 'm', system: [], tools: [], messages: texts.map((text) => ({ role: 'user', content: [{ type: 'text', text }] })) }) as unknown as IrRequest

  test('10,000 tiny distinct texts: at most 8,192 held, and at most 1 Mi characters', () => {
    for (let batch = 0; batch < 10; batch++) countRequestTokens(request(Array.from({ length: 1000 }, (_, i) => `t${batch}-${i}`)))
    const held = tokenCountCache()
    expect(held.texts).toBeLessThanOrEqual(8192)
    expect(held.chars).toBeLessThanOrEqual(1 << 20)
  })

  test('large distinct texts: the characters held stay under 1 Mi', () => {
    for (let i = 0; i < 40; i++) countRequestTokens(request([`${i} ${'word '.repeat(12_000)}`]))
    expect(tokenCountCache().chars).toBeLessThanOrEqual(1 << 20)
  })
})

describe('dead channel keys (relay/routing/key-rotation.ts)', () => {
  test('a channel holds no more dead keys than it lists: keys it dropped are forgotten at its next turn', () => {
    const rotation = createKeyRotation()
    // another node's word about keys this channel no longer lists (or an edit replaced them)
    for (let i = 0; i < 1000; i++) rotation.apply(1, `gone-${i}`, true)
    rotation.markDead(1, ['k1', 'k2'], 'k1')
    expect(rotation.take(1, ['k1', 'k2']).key).toBe('k2')
    expect(rotation.isDead(1, 'gone-0')).toBe(false)
    expect(rotation.isDead(1, 'k1')).toBe(true)
    expect(rotation.take(1, ['k1', 'k2']).key).toBe('k2')
  })
})

describe('limiter and login counters (coord/local-limits.ts, local-login.ts)', () => {
  const limited = { rpm: 60, tpm: 0, concurrency: 0 }

  test('rate-limit scopes: idle ones are forgotten, so the map holds only what was active in the last minute', () => {
    let now = 0
    const limits = createLocalLimits(() => now)
    for (let i = 0; i < 20_000; i++) {
      const admit = limits.acquire([{ key: `t:${i}`, label: 'API key', limits: limited }], 0, 1000)
      if (admit.ok) admit.release(0)
    }
    expect(limits.size).toBeGreaterThan(10_000)
    now += 61_000
    for (let i = 0; i < 10_000; i++) {
      const admit = limits.acquire([{ key: 't:fresh', label: 'API key', limits: limited }], 0, 1000)
      if (admit.ok) admit.release(0)
    }
    expect(limits.size).toBeLessThanOrEqual(1)
  })

  test('login windows: 12,000 made-up names keep at most 10,000 windows', () => {
    const login = createLocalLogin(() => 0)
    for (let i = 0; i < 12_000; i++) login.attempt([{ key: `user:${i}`, free: 10 }], { maxSeconds: 900, forgetSeconds: 300 })
    expect(login.size()).toBeLessThanOrEqual(10_000)
  })
})
