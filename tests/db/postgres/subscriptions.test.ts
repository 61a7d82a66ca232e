/**
 * A plan's period quota on PostgreSQL, from two nodes at once: 200 concurrent takes split between two nodes' pools
 * never spend more than the period holds; a take in a later period starts it at zero once (a node whose clock is
 * still in the earlier period does not reset it again); settlements refund only into the period they took from.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { openRepos } from '../../../src/db'
import type { Repos } from '../../../src/db/repos'
import { hasPostgres, NO_POSTGRES, sharedPostgres } from '../../helpers/pg-server'

const testPg = hasPostgres() ? test : test.skip
if (!hasPostgres()) console.warn(`tests/db/postgres/subscriptions: ${NO_POSTGRES}`)

const opened: Repos[] = []
let a: Repos
let b: Repos
beforeAll(async () => {
  if (!hasPostgres()) return
  const url = await (await sharedPostgres()).createDatabase()
  for (const nodeId of ['a', 'b']) opened.push(await openRepos({ database: { kind: 'postgres', url, poolSize: 10, statementTimeoutMs: 30_000, holdTtlSeconds: 45 }, writerThread: false }, { nodeId }))
  ;[a, b] = opened as [Repos, Repos]
}, 60_000)
afterAll(async () => {
  for (const repos of opened) await repos.close()
})

const DAY = 86_400
async function heldPlan(total: number) {
  const plan = await a.subscriptions.insertPlan({ title: 'Daily', totalAmount: total, quotaResetPeriod: 'daily' })
  const now = Math.floor(Date.now() / 1000)
  return a.subscriptions.grant({ userId: 1, planId: plan.id, amountTotal: total, startTime: now - DAY, endTime: now + 10 * DAY, lastResetTime: 0 })
}

testPg('200 takes from two nodes against a period of 50: exactly 50 succeed', async () => {
  const held = await heldPlan(50_000)
  const now = Math.floor(Date.now() / 1000)
  const period = { start: now - (now % DAY), next: now - (now % DAY) + DAY }
  const results = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).subscriptions.take(held.id, 1000, now, period)))
  expect(results.filter((r) => r.ok)).toHaveLength(50)
  expect((await a.subscriptions.findById(held.id))!.amountUsed).toBe(50_000)
}, 60_000)

testPg('a new period starts at zero once; a lagging clock does not reset it again; a refund stays in its period', async () => {
  const held = await heldPlan(3000)
  const now = Math.floor(Date.now() / 1000)
  const today = { start: now - (now % DAY), next: now - (now % DAY) + DAY }
  const tomorrow = { start: today.next, next: today.next + DAY }
  const first = await a.subscriptions.take(held.id, 3000, now, today)
  expect(first.ok).toBe(true)
  expect((await b.subscriptions.take(held.id, 1, now, today)).ok).toBe(false)
  const next = await b.subscriptions.take(held.id, 1000, today.next + 5, tomorrow)
  expect(next).toMatchObject({ ok: true, periodStart: tomorrow.start, amountUsed: 1000 })
  // node a's clock is a little behind: still "today" for it, but the row is in tomorrow's period, which it spends
  const lagging = await a.subscriptions.take(held.id, 1000, today.next - 1, today)
  expect(lagging).toMatchObject({ ok: true, periodStart: tomorrow.start, amountUsed: 2000 })
  // the first take's settlement (period today) refunds nothing into tomorrow's
  expect((await a.subscriptions.settle(held.id, today.start, 3000, 0)).charged).toBe(0)
  expect((await a.subscriptions.findById(held.id))!.amountUsed).toBe(2000)
  // tomorrow's take, settled at half, gives back the other half
  expect((await b.subscriptions.settle(held.id, tomorrow.start, 1000, 500)).charged).toBe(500)
  expect((await a.subscriptions.findById(held.id))!.amountUsed).toBe(1500)
  // a cost beyond the reservation is taken only as far as the period's quota reaches
  expect((await a.subscriptions.settle(held.id, tomorrow.start, 1000, 5000)).charged).toBe(1000 + 1500)
  expect((await a.subscriptions.findById(held.id))!.amountUsed).toBe(3000)
}, 60_000)
