/**
 * A plan's take on PostgreSQL follows the wallet's lease: a node that dies holding one (it never settles) gives the
 * plan's period and the API key's hold back through any live node's sweep once the lease ends; a live node's take is
 * renewed and stays; a settlement that finds its take swept charges only what the period and the key still hold.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openRepos, type PostgresExtras } from '../../../src/db'
import type { PostgresRepos } from '../../../src/db/postgres/repos'
import { spendPeriod } from '../../../src/subscriptions/period'
import { hasPostgres, NO_POSTGRES, sharedPostgres } from '../../helpers/pg-server'

const describePg = hasPostgres() ? describe : describe.skip
if (!hasPostgres()) console.warn(`tests/db/postgres/plan-holds: ${NO_POSTGRES}`)

async function until<T>(check: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (ok(value) || Date.now() > end) return value
    await Bun.sleep(50)
  }
}

describePg('plan holds on PostgreSQL', () => {
  let url: string
  const opened: PostgresRepos[] = []
  const node = async (nodeId: string, lease: PostgresExtras['lease'] = {}) => {
    const repos = (await openRepos({ database: { kind: 'postgres', url, poolSize: 5, statementTimeoutMs: 30_000, holdTtlSeconds: 45 }, writerThread: false }, { nodeId, lease })) as PostgresRepos
    opened.push(repos)
    return repos
  }
  let a: PostgresRepos
  let seq = 0
  const now = () => Math.floor(Date.now() / 1000)
  /** a user holding a daily plan of `total`, and a key limited to `remain` */
  async function holder(total: number, remain: number) {
    const user = await a.users.insert({ username: `p${++seq}`, password: 'x', quota: 0 })
    const token = await a.tokens.insert({ userId: user.id, keyHash: `k${seq}`.padEnd(64, '0'), keyHint: 'sk', remainQuota: remain, unlimitedQuota: false })
    const plan = await a.subscriptions.insertPlan({ title: 'Daily', totalAmount: total, quotaResetPeriod: 'daily' })
    const period = spendPeriod('daily', 0, now(), now())
    const held = await a.subscriptions.grant({ userId: user.id, planId: plan.id, amountTotal: total, amountUsed: 0, startTime: now() - 10, endTime: now() + 86_400 * 3, lastResetTime: period.start, nextResetTime: period.next })
    return { held, token, period }
  }
  const stored = async (subscriptionId: number, tokenId: number) => {
    a.tokens.forget(tokenId)
    return { used: (await a.subscriptions.findById(subscriptionId))!.amountUsed, remain: (await a.tokens.findById(tokenId))!.remainQuota }
  }
  /** what a request on `repos` does before it is sent: hold the key, then take the plan (subscriptions/funding.ts) */
  async function take(repos: PostgresRepos, subscriptionId: number, tokenId: number, amount: number, period: ReturnType<typeof spendPeriod>) {
    expect((await repos.quota.holdToken(tokenId, amount)).ok).toBe(true)
    const taken = await repos.subscriptions.take(subscriptionId, amount, now(), period, { id: tokenId, held: amount })
    expect(taken.ok).toBe(true)
    return taken
  }

  beforeAll(async () => {
    url = await (await sharedPostgres()).createDatabase()
    a = await node('a')
  }, 60_000)
  afterAll(async () => {
    for (const repos of opened) await repos.close()
  })

  test("a dead node's take comes back to the plan and the key once its lease ends; a live node's is renewed and stays", async () => {
    // no node guard holds 'dead' or 'live' here: both count as gone for the sweep once their holds expire, so only renewal keeps 'live''s
    const dead = await node('dead', { ttlSeconds: 1, renewEveryMs: 0, sweepEveryMs: 0 })
    const live = await node('live', { ttlSeconds: 1, renewEveryMs: 200, sweepEveryMs: 100 })
    const { held, token, period } = await holder(10_000, 5_000)
    await take(dead, held.id, token.id, 3_000, period)
    const kept = await take(live, held.id, token.id, 1_000, period)
    expect(await stored(held.id, token.id)).toEqual({ used: 4_000, remain: 1_000 })
    expect(dead.holds.live).toBe(1)
    const back = await until(() => stored(held.id, token.id), (s) => s.used === 1_000)
    expect(back).toEqual({ used: 1_000, remain: 4_000 })
    // the live node's take outlives the lease it was taken with
    await Bun.sleep(1500)
    expect(await stored(held.id, token.id)).toEqual({ used: 1_000, remain: 4_000 })
    expect(live.holds.live).toBe(1)
    const settled = await live.subscriptions.settle(held.id, kept.periodStart, 1_000, 400, kept.hold)
    expect(settled).toEqual({ charged: 400, swept: false })
    expect(live.holds.live).toBe(0)
    expect((await stored(held.id, token.id)).used).toBe(400)
  }, 30_000)

  test('a settlement after its take was swept charges what the period still holds, and says so (the key was given back too)', async () => {
    const slow = await node('slow', { ttlSeconds: 0.2, renewEveryMs: 0, sweepEveryMs: 0 })
    const { held, token, period } = await holder(1_000, 800)
    const taken = await take(slow, held.id, token.id, 300, period)
    await until(() => a.holds.sweep(), (n) => n >= 1)
    expect(await stored(held.id, token.id)).toEqual({ used: 0, remain: 800 })
    // the period is spent elsewhere meanwhile, to 900 of 1,000
    const other = await a.subscriptions.take(held.id, 900, now(), period)
    expect(other.ok).toBe(true)
    await a.subscriptions.settle(held.id, other.periodStart, 900, 900, other.hold)
    const late = await slow.subscriptions.settle(held.id, taken.periodStart, 300, 250, taken.hold)
    expect(late).toEqual({ charged: 100, swept: true })
    expect((await stored(held.id, token.id)).used).toBe(1_000)
  }, 30_000)
})
