import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { createRateLimiter } from '../../src/metering/rate-limit'
import { RateLimitError } from '../../src/errors'
import type { RelayEnv } from '../helpers/relay-env'
import { account, chat, chatBody, messages, settled, startMeteredEnv, userRow } from './env'
import { until } from '../helpers/wait'

describe('the limiter', () => {
  const limits = (rpm: number, tpm: number, concurrency: number) => ({ rpm, tpm, concurrency })
  const scope = (l: ReturnType<typeof limits>) => [{ key: 't:1', label: 'API key', limits: l }]

  test('RPM is a bucket that refills continuously; retry-after says when the next request fits', () => {
    let now = 1000
    const limiter = createRateLimiter(() => now)
    for (let i = 0; i < 60; i++) limiter.acquire(scope(limits(60, 0, 0)), 0)(0)
    let error: unknown
    try {
      limiter.acquire(scope(limits(60, 0, 0)), 0)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(RateLimitError)
    expect((error as RateLimitError).headers!['retry-after']).toBe('1')
    now += 1
    expect(() => limiter.acquire(scope(limits(60, 0, 0)), 0)).not.toThrow()
  })

  test('TPM takes the estimate at the start and gives back what was not used', () => {
    const limiter = createRateLimiter(() => 0)
    const release = limiter.acquire(scope(limits(0, 1000, 0)), 900)
    expect(() => limiter.acquire(scope(limits(0, 1000, 0)), 200)).toThrow('tokens per minute')
    release(50) // used 50 of the 900 taken
    expect(() => limiter.acquire(scope(limits(0, 1000, 0)), 900)).not.toThrow()
  })

  test('a request larger than the whole TPM budget passes only on a full bucket', () => {
    const limiter = createRateLimiter(() => 0)
    const release = limiter.acquire(scope(limits(0, 100, 0)), 5000)
    expect(() => limiter.acquire(scope(limits(0, 100, 0)), 1)).toThrow()
    release(5000)
  })

  test('concurrency counts requests in flight; a refusal by one scope takes nothing from the others', () => {
    const limiter = createRateLimiter(() => 0)
    const token = { key: 't:1', label: 'API key', limits: limits(0, 0, 5) }
    const user = { key: 'u:1', label: 'user', limits: limits(0, 0, 1) }
    const release = limiter.acquire([token, user], 0)
    expect(() => limiter.acquire([token, user], 0)).toThrow('user already has 1 requests in flight')
    release(0)
    release(0) // twice is harmless
    const again = limiter.acquire([token, user], 0)
    again(0)
  })

  test('scopes without limits keep no state; idle ones are forgotten', () => {
    let now = 0
    const limiter = createRateLimiter(() => now)
    limiter.acquire(scope(limits(0, 0, 0)), 10)(10)
    expect(limiter.size).toBe(0)
    for (let i = 0; i < 100; i++) limiter.acquire([{ key: `t:${i}`, label: 'API key', limits: limits(10, 0, 0) }], 0)(0)
    expect(limiter.size).toBe(100)
    now += 3600
    for (let i = 0; i < 10_000; i++) limiter.acquire(scope(limits(0, 0, 0)), 0)(0)
    expect(limiter.size).toBe(0)
  })
})

describe('through the relay', () => {
  let env: RelayEnv
  beforeAll(async () => {
    env = await startMeteredEnv()
    await env.addChannel({ type: 1, models: 'gpt-4o' })
    await env.addChannel({ type: 14, models: 'claude-sonnet-4-5' })
  })
  afterAll(() => env.stop())
  beforeEach(() => {
    env.upstream.reset()
    env.outcomes.length = 0
  })
  afterEach(async () => {
    const o = env.app.deps.options
    for (const k of ['TokenRpmLimit', 'TokenTpmLimit', 'TokenConcurrencyLimit', 'UserRpmLimit', 'UserTpmLimit', 'UserConcurrencyLimit']) await o.set(k, 0)
    await o.set('GroupRateLimits', {})
  })

  test('RPM per API key → 429 with retry-after in the OpenAI shape; nothing charged, nothing sent upstream', async () => {
    await env.app.deps.options.set('TokenRpmLimit', 2)
    const { user, key } = await account(env, 1_000_000)
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
    const before = (await userRow(env, user.id)).quota
    const res = await chat(env, key, chatBody('gpt-4o'))
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    const body = (await res.json()) as any
    expect(body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' })
    expect(body.error.message).toContain('2 requests per minute')
    expect(env.upstream.requests).toHaveLength(2)
    expect((await userRow(env, user.id)).quota).toBe(before)
    // another key of the same user has its own bucket
    const other = await env.newKey({ unlimited_quota: true }, user)
    expect((await chat(env, other, chatBody('gpt-4o'))).status).toBe(200)
  })

  test('RPM per user → 429 with retry-after in the Anthropic shape', async () => {
    await env.app.deps.options.set('UserRpmLimit', 1)
    const { user, key } = await account(env, 1_000_000)
    const body = { model: 'claude-sonnet-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }
    expect((await messages(env, key, body)).status).toBe(200)
    const second = await env.newKey({ unlimited_quota: true }, user)
    const res = await messages(env, second, body)
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    const json = (await res.json()) as any
    expect(json.type).toBe('error')
    expect(json.error.type).toBe('rate_limit_error')
    expect(json.error.message).toContain('this user may send 1 requests per minute')
  })

  test('concurrent requests per API key: the second in flight is refused, the slot frees when the first ends', async () => {
    await env.app.deps.options.set('TokenConcurrencyLimit', 1)
    const { key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ text: 'slow', firstByteDelayMs: 200 })
    const sent = env.upstream.requests.length
    const first = chat(env, key, chatBody('gpt-4o'))
    await until(() => env.upstream.requests.length > sent, { what: 'the first request at the upstream' })
    const second = await chat(env, key, chatBody('gpt-4o'))
    expect(second.status).toBe(429)
    expect(second.headers.get('retry-after')).toBe('1')
    expect((await first).status).toBe(200)
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
  })

  test('TPM holds the estimate while a request runs and settles to the real usage after', async () => {
    await env.app.deps.options.set('TokenTpmLimit', 1000)
    const { key } = await account(env, 1_000_000)
    env.upstream.setBehavior({ text: 'slow', firstByteDelayMs: 200, usage: { input: 10, output: 10 } })
    const sent = env.upstream.requests.length
    const first = chat(env, key, chatBody('gpt-4o', { max_tokens: 800 }))
    await until(() => env.upstream.requests.length > sent, { what: 'the first request at the upstream' })
    const second = await chat(env, key, chatBody('gpt-4o', { max_tokens: 800 }))
    expect(second.status).toBe(429)
    expect(((await second.json()) as any).error.message).toContain('1000 tokens per minute')
    expect((await first).status).toBe(200)
    await settled(env, 1)
    // the first used 20 tokens, not 800+: there is room again
    expect((await chat(env, key, chatBody('gpt-4o', { max_tokens: 800 }))).status).toBe(200)
  })

  test('TPM: a prompt whose byte bound is over what is left is counted exactly before a 429', async () => {
    await env.app.deps.options.set('TokenTpmLimit', 20_000)
    const { key } = await account(env, 1_000_000_000)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 5_000, output: 0 } })
    const small = { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }
    expect((await messages(env, key, small)).status).toBe(200)
    await settled(env, 1) // 5,000 of the 20,000 used: ~15,000 left
    const content = 'the quick brown fox jumps over the lazy dog; '.repeat(1_000) // 45 KB: ~10k tokens
    const body = { ...small, messages: [{ role: 'user', content }] }
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(20_000) // its bound asks for the whole minute
    const res = await messages(env, key, body)
    expect(res.status, await res.clone().text()).toBe(200)
    await settled(env, 2)
    expect(env.outcomes[1]!.reservation).toMatchObject({ promptExact: true })
    // ~10,000 left: a prompt whose exact count is more is still refused
    const twice = await messages(env, key, { ...small, messages: [{ role: 'user', content: content + content }] })
    expect(twice.status).toBe(429)
    expect(((await twice.json()) as any).error.message).toContain('20000 tokens per minute')
  })

  test('per-group overrides win over the defaults', async () => {
    await env.app.deps.options.set('TokenRpmLimit', 100)
    await env.app.deps.options.set('GroupRateLimits', { default: { token_rpm: 1 } })
    const { key } = await account(env, 1_000_000)
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(429)
  })
})
