/**
 * The same period rules on SQLite (tests/db/postgres/subscriptions.test.ts has them from two nodes): a new period
 * starts at zero once, a lagging clock does not reset it again, a refund stays in its period, and a cost beyond the
 * reservation is taken only as far as the period's quota reaches; a cancelled or ended plan takes nothing.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openRepos } from '../../src/db'
import type { Repos } from '../../src/db/repos'

const DAY = 86_400
let repos: Repos
let dir: string
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-plans-'))
  repos = await openRepos({ database: { kind: 'sqlite', path: join(dir, 'db.sqlite') }, writerThread: false })
})
afterAll(async () => {
  await repos.close()
  rmSync(dir, { recursive: true, force: true })
})

async function heldPlan(total: number, endIn = 10 * DAY) {
  const plan = await repos.subscriptions.insertPlan({ title: 'Daily', totalAmount: total, quotaResetPeriod: 'daily' })
  const now = Math.floor(Date.now() / 1000)
  return repos.subscriptions.grant({ userId: 1, planId: plan.id, amountTotal: total, startTime: now - DAY, endTime: now + endIn, lastResetTime: 0 })
}

test('periods: reset once, a lagging clock spends the newer period, refunds stay in their period, extra capped', async () => {
  const s = repos.subscriptions
  const held = await heldPlan(3000)
  const now = Math.floor(Date.now() / 1000)
  const today = { start: now - (now % DAY), next: now - (now % DAY) + DAY }
  const tomorrow = { start: today.next, next: today.next + DAY }
  expect((await s.take(held.id, 3000, now, today)).ok).toBe(true)
  expect((await s.take(held.id, 1, now, today)).ok).toBe(false)
  expect(await s.take(held.id, 1000, today.next + 5, tomorrow)).toMatchObject({ ok: true, periodStart: tomorrow.start, amountUsed: 1000 })
  expect(await s.take(held.id, 1000, today.next - 1, today)).toMatchObject({ ok: true, periodStart: tomorrow.start, amountUsed: 2000 })
  expect((await s.settle(held.id, today.start, 3000, 0)).charged).toBe(0)
  expect((await s.findById(held.id))!.amountUsed).toBe(2000)
  expect((await s.settle(held.id, tomorrow.start, 1000, 500)).charged).toBe(500)
  expect((await s.settle(held.id, tomorrow.start, 1000, 5000)).charged).toBe(2500)
  expect((await s.findById(held.id))!.amountUsed).toBe(3000)
})

test('a cancelled plan, or one past its end, takes nothing', async () => {
  const s = repos.subscriptions
  const now = Math.floor(Date.now() / 1000)
  const period = { start: now - (now % DAY), next: now - (now % DAY) + DAY }
  const cancelled = await heldPlan(10_000)
  await s.cancel(cancelled.id, now)
  expect((await s.take(cancelled.id, 1, now, period)).ok).toBe(false)
  const ending = await heldPlan(10_000, 60)
  expect((await s.take(ending.id, 1, now + 59, period)).ok).toBe(true)
  expect((await s.take(ending.id, 1, now + 60, period)).ok).toBe(false)
  expect((await s.spendable(1, now + 60)).map((p) => p.id)).not.toContain(ending.id)
})
