/**
 * Quota on PostgreSQL is the database's decision: concurrent reservations (from one node or several) never spend
 * more than the balance, a dead node's holds come back within their lease, and a settlement whose hold was
 * already given back charges only what the balances still hold.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openRepos, type PostgresExtras } from '../../../src/db'
import { LogType } from '../../../src/db/repos'
import { takeNodeGuard } from '../../../src/db/postgres/node-guard'
import type { PostgresRepos } from '../../../src/db/postgres/repos'
import { hasPostgres, NO_POSTGRES, sharedPostgres } from '../../helpers/pg-server'

const describePg = hasPostgres() ? describe : describe.skip
if (!hasPostgres()) console.warn(`tests/db/postgres/quota-holds: ${NO_POSTGRES}`)

/** Poll `check` until it holds (or the time is up); answers its last value. */
async function until<T>(check: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (ok(value) || Date.now() > end) return value
    await Bun.sleep(50)
  }
}

describePg('quota holds on PostgreSQL', () => {
  let url: string
  const opened: PostgresRepos[] = []
  /** a node on the test database: its own pool and node id */
  const node = async (nodeId: string, lease: PostgresExtras['lease'] = {}) => {
    const repos = (await openRepos({ database: { kind: 'postgres', url, poolSize: 10, statementTimeoutMs: 30_000, holdTtlSeconds: 45 }, writerThread: false }, { nodeId, lease })) as PostgresRepos
    opened.push(repos)
    return repos
  }
  let a: PostgresRepos
  let seq = 0
  const account = async (quota: number, remainQuota?: number) => {
    const user = await a.users.insert({ username: `u${++seq}`, password: 'x', quota })
    const token = await a.tokens.insert({ userId: user.id, keyHash: `h${seq}`.padEnd(64, '0'), keyHint: 'sk', remainQuota: remainQuota ?? 0, unlimitedQuota: remainQuota === undefined })
    return { user, token, limited: remainQuota !== undefined }
  }
  /** whether a hold is past its expiry, as the database sees it */
  const stalledHoldRows = async (hold: number) => {
    const { SQL } = await import('bun')
    const sql = new SQL({ url, max: 1 })
    try {
      return (await sql`SELECT expires_at < now() AS expired FROM quota_holds WHERE id = ${hold}`) as { expired: boolean }[]
    } finally {
      await sql.close()
    }
  }
  /** balances as stored, past every cache */
  const stored = async (userId: number, tokenId: number) => {
    a.users.forget(userId)
    return { user: (await a.users.findById(userId))!, token: (await a.tokens.findById(tokenId))! }
  }

  beforeAll(async () => {
    url = await (await sharedPostgres()).createDatabase()
    a = await node('a')
  }, 60_000)
  const afterAllRelease: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const repos of opened) await repos.close()
    for (const release of afterAllRelease) await release()
  })

  test('1,000 concurrent reservations, from two nodes, against a balance that covers 100: exactly 100 pass, the balance ends at 0', async () => {
    const b = await node('b')
    const { user, token } = await account(100_000)
    const tries = await Promise.all(Array.from({ length: 1000 }, (_, i) => (i % 2 ? a : b).quota.reserve(user.id, token.id, false, 1000)))
    expect(tries.filter((r) => r.ok)).toHaveLength(100)
    expect(new Set(tries.filter((r) => r.ok).map((r) => r.hold)).size).toBe(100)
    expect((await stored(user.id, token.id)).user.quota).toBe(0)
    // the API key's own balance is the limit when it is the smaller one; both or neither are taken
    const rich = await account(1_000_000, 100_000)
    const keyed = await Promise.all(Array.from({ length: 1000 }, (_, i) => (i % 2 ? a : b).quota.reserve(rich.user.id, rich.token.id, true, 1000)))
    expect(keyed.filter((r) => r.ok)).toHaveLength(100)
    expect(await stored(rich.user.id, rich.token.id)).toMatchObject({ user: { quota: 900_000 }, token: { remainQuota: 0 } })
  }, 60_000)

  test('a dead node’s hold (never renewed) is given back by a live node’s sweep once its lease ends; a live node’s hold stays', async () => {
    // as when serving: the node guard's advisory lock is held the whole time (its key must not be the sweep's)
    const guard = await takeNodeGuard(url, { shared: true })
    afterAllRelease.push(() => guard.release())
    const dead = await node('dead', { ttlSeconds: 1, renewEveryMs: 0, sweepEveryMs: 0 })
    const live = await node('live', { ttlSeconds: 1, renewEveryMs: 200, sweepEveryMs: 100 })
    const { user, token } = await account(10_000, 5_000)
    expect((await dead.quota.reserve(user.id, token.id, true, 3_000)).ok).toBe(true)
    const kept = await live.quota.reserve(user.id, token.id, true, 1_000)
    expect(kept.ok).toBe(true)
    expect(await stored(user.id, token.id)).toMatchObject({ user: { quota: 6_000 }, token: { remainQuota: 1_000 } })
    const back = await until(() => stored(user.id, token.id), (s) => s.user.quota === 9_000)
    expect(back).toMatchObject({ user: { quota: 9_000 }, token: { remainQuota: 4_000 } })
    // the live node's hold outlives the lease it was taken with: renewed, not swept
    await Bun.sleep(1500)
    expect(await stored(user.id, token.id)).toMatchObject({ user: { quota: 9_000 }, token: { remainQuota: 4_000 } })
    expect(live.holds.live).toBe(1)
    const settled = await live.quota.settle({ userId: user.id, tokenId: token.id, tokenLimited: true, channelId: 0, reserved: 1_000, actual: 400, now: 1, hold: kept.hold })
    expect(settled.charged).toBe(400)
    expect(live.holds.live).toBe(1) // queued for the next batch: still renewed until it commits
    await live.commitMetering([])
    expect(live.holds.live).toBe(0)
    expect(await stored(user.id, token.id)).toMatchObject({ user: { quota: 9_600, usedQuota: 400 }, token: { remainQuota: 4_600, usedQuota: 400 } })
  }, 30_000)

  test('a settlement waiting for a slow batch keeps its hold: the money is not reserved twice, and the charge finds it', async () => {
    // the overspend three nodes showed under load: a batch later than the lease gave the hold back while its charge
    // waited, other requests reserved the same money, and the late charge found nothing left (served, unpaid)
    const busy = await node('busy', { ttlSeconds: 1, renewEveryMs: 200, sweepEveryMs: 0 })
    const { user, token } = await account(1_000)
    const held = await busy.quota.reserve(user.id, token.id, false, 1_000)
    expect(held.ok).toBe(true)
    await busy.quota.settle({ userId: user.id, tokenId: token.id, tokenLimited: false, channelId: 0, reserved: 1_000, actual: 1_000, now: 1, hold: held.hold })
    // several leases pass before the batch commits; another node sweeps all the while
    const until = Date.now() + 2_500
    while (Date.now() < until) {
      expect(await a.holds.sweep()).toBe(0)
      expect((await stored(user.id, token.id)).user.quota).toBe(0)
      expect((await a.quota.reserve(user.id, token.id, false, 1)).ok).toBe(false)
      await Bun.sleep(250) // a poll: the claim is that nothing changes for several leases
    }
    await busy.commitMetering([])
    expect(busy.holds.live).toBe(0)
    expect(await stored(user.id, token.id)).toMatchObject({ user: { quota: 0, usedQuota: 1_000 } })
  }, 30_000)

  test('a live node whose renewals stall past the lease keeps its holds while its guard holds its node lock; they come back once it is gone', async () => {
    // what three loaded nodes showed: renewals queued behind 1,000 requests ran later than the lease, another
    // node's sweep gave live holds back, and the same money was reserved twice (122 served against a balance for 100)
    const guard = await takeNodeGuard(url, { shared: true, nodeId: 'stalled' })
    let released = false
    afterAllRelease.push(() => (released ? Promise.resolve() : guard.release()))
    const stalled = await node('stalled', { ttlSeconds: 0.2, renewEveryMs: 0, sweepEveryMs: 0 })
    const { user, token } = await account(1_000)
    const held = await stalled.quota.reserve(user.id, token.id, false, 1_000)
    expect(held.ok).toBe(true)
    // long past the lease: expired, not renewed, but its node is alive
    const [row] = await until(() => stalledHoldRows(held.hold!), (rows) => rows[0]?.expired === true)
    expect(row!.expired).toBe(true)
    expect(await a.holds.sweep()).toBe(0)
    expect((await stored(user.id, token.id)).user.quota).toBe(0)
    expect((await a.quota.reserve(user.id, token.id, false, 1)).ok).toBe(false)
    // the node goes (its guard connection ends, as when the process dies): the next sweep gives the hold back
    await guard.release()
    released = true
    // any node's sweep may take it (the earlier tests' nodes sweep in the background too): the balance is the claim
    const back = await until(async () => (await a.holds.sweep(), await stored(user.id, token.id)), (b) => b.user.quota === 1_000)
    expect(back.user.quota).toBe(1_000)
  }, 30_000)

  test('a settlement after its hold was swept charges only what the balances still reach, never below zero', async () => {
    const slow = await node('slow', { ttlSeconds: 0.2, renewEveryMs: 0, sweepEveryMs: 0 })
    const { user, token } = await account(1_000, 800)
    const held = await slow.quota.reserve(user.id, token.id, true, 300)
    expect(held).toMatchObject({ ok: true, userQuota: 700, tokenRemain: 500 })
    await until(() => a.holds.sweep(), (n) => n === 1)
    expect(await stored(user.id, token.id)).toMatchObject({ user: { quota: 1_000 }, token: { remainQuota: 800 } })
    expect(await a.users.addQuota(user.id, -900)).toMatchObject({ quota: 100 }) // spent elsewhere meanwhile
    const late = await slow.quota.settle({ userId: user.id, tokenId: token.id, tokenLimited: true, channelId: 0, reserved: 300, actual: 250, now: 1, hold: held.hold, requestId: 'req-late' })
    expect(late.charged).toBe(250) // what it answers before the database decides
    // its log row, as metering writes it with that answer, goes in the same batch and gets the charge made
    const row = { type: LogType.consume, userId: user.id, username: 'u', modelName: 'm', quota: 250, requestId: 'req-late', other: '{"reserved":300}' }
    await slow.commitMetering([row])
    expect(await stored(user.id, token.id)).toMatchObject({ user: { quota: 0, usedQuota: 100, requestCount: 1 }, token: { remainQuota: 700, usedQuota: 100 } })
    const [logged] = (await a.logs.list({ requestId: 'req-late' }, 0, 10)).items
    expect(logged).toMatchObject({ quota: 100 })
    expect(JSON.parse(logged!.other)).toEqual({ reserved: 300, unpaid: 150 })
    // and when the balances cover it, the actual cost, not the reservation
    await a.users.addQuota(user.id, 1_000)
    const again = await slow.quota.reserve(user.id, token.id, true, 300)
    await until(() => a.holds.sweep(), (n) => n === 1)
    const full = await slow.quota.settle({ userId: user.id, tokenId: token.id, tokenLimited: true, channelId: 0, reserved: 300, actual: 250, now: 2, hold: again.hold })
    expect(full.charged).toBe(250)
    await slow.commitMetering([])
    expect(await stored(user.id, token.id)).toMatchObject({ user: { quota: 750 }, token: { remainQuota: 450 } })
  }, 30_000)

  test('a settlement moves the channel’s used quota with the balances, with the next log batch', async () => {
    const [channel] = await a.channels.insert([{ type: 1, name: 'c', key: 'sealed', models: 'm' }])
    const { user, token } = await account(1_000)
    const held = await a.quota.reserve(user.id, token.id, false, 500)
    await a.quota.settle({ userId: user.id, tokenId: token.id, tokenLimited: false, channelId: channel!.id, reserved: 500, actual: 120, now: 1, hold: held.hold })
    expect((await a.channels.findById(channel!.id))?.usedQuota).toBe(0) // queued for the log batch
    await a.commitMetering([])
    expect((await a.channels.findById(channel!.id))?.usedQuota).toBe(120)
    expect((await stored(user.id, token.id)).user).toMatchObject({ quota: 880, usedQuota: 120 })
  })
})
