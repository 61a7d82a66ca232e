import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { appDialects } from '../helpers/test-app'
import { account, chatBody, logsOf, logsWhen, settled, startMeteredEnv, userRow } from './env'
import { rawPost } from './raw-http'

/**
 * 1,000 simultaneous requests through the real HTTP relay against a balance that covers 100: at most
 * what the balance covers is served, no balance goes below zero, and the logged charges add up to the
 * drop in balance, to the unit. On each dialect: SQLite's ledger decides in memory, PostgreSQL's functions in the
 * database (src/db/postgres/repos/quota.ts).
 */
const N = 1000

for (const dialect of appDialects()) describe.skipIf(dialect.skip)(dialect.name, () => {
  let env: RelayEnv
  beforeAll(async () => {
    env = await startMeteredEnv(await dialect.env())
    await env.addChannel({ type: 1, models: 'gpt-4o' })
  }, 60_000)
  afterAll(() => env.stop())

  async function storm(key: string, body: unknown): Promise<number[]> {
    env.outcomes.length = 0
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const text = JSON.stringify(body)
    const statuses = await Promise.all(Array.from({ length: N }, () => rawPost(env.app.url, '/v1/chat/completions', headers, text).then((r) => r.status)))
    await settled(env, statuses.filter((s) => s === 200).length)
    return statuses
  }

  test('fixed price per call: a balance for exactly 100 calls serves exactly 100 of 1,000', async () => {
    await env.app.deps.options.set('ModelPrice', { 'gpt-4o': 0.002 }) // 1,000 quota a call
    const { user, key } = await account(env, 100_000)
    env.upstream.setBehavior({ text: 'ok', firstByteDelayMs: 20, usage: { input: 10, output: 10 } })
    const statuses = await storm(key, chatBody('gpt-4o'))
    const served = statuses.filter((s) => s === 200).length
    expect(served).toBe(100)
    expect(statuses.filter((s) => s === 403).length).toBe(N - 100)
    expect(env.upstream.requests.length).toBe(100)
    const after = await userRow(env, user.id)
    expect(after.quota).toBe(0)
    expect(after.usedQuota).toBe(100_000)
    // one row per request: 100 charged, 900 refusals (403, nothing charged)
    const logs = await logsWhen(env, user.id, N)
    expect(logs).toHaveLength(N)
    expect(logs.filter((l) => l.type === 2)).toHaveLength(100)
    expect(logs.filter((l) => l.type === 5 && l.statusCode === 403 && l.quota === 0)).toHaveLength(N - 100)
    expect(logs.reduce((sum, l) => sum + l.quota, 0)).toBe(100_000)
    await env.app.deps.options.set('ModelPrice', {})
  }, 30_000)

  test('token prices with a limited API key: never below zero, charges in the log = drop in both balances', async () => {
    env.upstream.reset()
    // gpt-4o: the estimate (prompt + max_tokens) is a little above the real cost, so the cover is ≈ 100 calls
    const perCall = Math.round((10 + 10 * 4) * 1.25) // 63
    const { user, key } = await account(env, 10_000_000, perCall * 100)
    env.upstream.setBehavior({ text: 'ok', firstByteDelayMs: 20, usage: { input: 10, output: 10 } })
    const statuses = await storm(key, chatBody('gpt-4o', { max_tokens: 20 }))
    const served = statuses.filter((s) => s === 200).length
    expect(served).toBeGreaterThan(0)
    expect(served).toBeLessThanOrEqual(100)
    expect(statuses.every((s) => s === 200 || s === 403)).toBe(true)
    const after = await userRow(env, user.id) // first: it waits for the settlements still running
    const token = (await env.app.deps.repos.tokens.listOwned(user.id, 0, 1)).items[0]!
    expect(token.remainQuota).toBeGreaterThanOrEqual(0)
    const logs = await logsOf(env, user.id)
    const logged = logs.reduce((sum, l) => sum + l.quota, 0)
    expect(logs.filter((l) => l.type === 2)).toHaveLength(served)
    expect(logged).toBe(served * perCall)
    expect(perCall * 100 - token.remainQuota).toBe(logged)
    expect(10_000_000 - after.quota).toBe(logged)
    expect(token.usedQuota).toBe(logged)
  }, 30_000)

  test('when the upstream reports more than the estimate, the shortfall is taken only as far as the balance reaches', async () => {
    env.upstream.reset()
    // reported usage (1,000 in, 10 out) is far above the estimate of a two-word prompt with max_tokens 10
    const { user, key } = await account(env, 20_000)
    env.upstream.setBehavior({ text: 'ok', firstByteDelayMs: 20, usage: { input: 1000, output: 10 } })
    const statuses = await storm(key, chatBody('gpt-4o', { max_tokens: 10 }))
    const after = await userRow(env, user.id)
    expect(after.quota).toBeGreaterThanOrEqual(0)
    const logs = await logsOf(env, user.id)
    expect(logs.filter((l) => l.type === 2)).toHaveLength(statuses.filter((s) => s === 200).length)
    expect(logs.reduce((sum, l) => sum + l.quota, 0)).toBe(20_000 - after.quota)
    const unpaid = logs.map((l) => JSON.parse(l.other).unpaid ?? 0).reduce((a: number, b: number) => a + b, 0)
    expect(unpaid).toBeGreaterThan(0) // recorded, not silently lost
  }, 30_000)
})
