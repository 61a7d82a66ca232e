/**
 * The memory of users who hold no plan (src/db/repos/plan-holders.ts): a second lookup asks no query, a holder is
 * asked each time, a grant or `forgetHolder` forgets at once, a lookup that ran across a grant remembers nothing, and
 * the memory lapses after a minute.
 */
import { expect, test } from 'bun:test'
import { withPlanHolderCache } from '../../../src/db/repos/plan-holders'
import type { SpendableSubscription, StoredSubscriptionRepo } from '../../../src/db/repos/subscriptions'

function fake() {
  const held = new Map<number, SpendableSubscription[]>()
  let queries = 0
  let gate: Promise<void> | undefined
  const repo = {
    async spendable(userId: number) {
      queries++
      const rows = held.get(userId) ?? []
      if (gate) await gate
      return rows
    },
    async grant(row: { userId: number }) {
      held.set(row.userId, [{ id: 1, planId: 1, startTime: 0, endTime: 2e9, models: '', groups: '', quotaResetPeriod: 'never', quotaResetCustomSeconds: 0 }])
      return row
    },
  } as unknown as StoredSubscriptionRepo
  return { repo, queries: () => queries, hold: (p: Promise<void> | undefined) => (gate = p) }
}

test('a user without a plan is asked once; a holder each time', async () => {
  const f = fake()
  const cache = withPlanHolderCache(f.repo)
  expect(await cache.spendable(1, 0)).toEqual([])
  expect(await cache.spendable(1, 0)).toEqual([])
  expect(f.queries()).toBe(1)
  await cache.grant({ userId: 2 } as never)
  await cache.spendable(2, 0)
  await cache.spendable(2, 0)
  expect(f.queries()).toBe(3)
})

test('a grant here, or forgetHolder (a purchase, another node), forgets at once', async () => {
  const f = fake()
  const cache = withPlanHolderCache(f.repo)
  await cache.spendable(1, 0)
  await cache.grant({ userId: 1 } as never)
  expect(await cache.spendable(1, 0)).toHaveLength(1)
  await cache.spendable(3, 0)
  cache.forgetHolder(3)
  await cache.spendable(3, 0)
  await cache.spendable(4, 0)
  cache.forgetHolder()
  await cache.spendable(4, 0)
  expect(f.queries()).toBe(6)
})

test('a lookup that ran across a grant does not remember its answer', async () => {
  const f = fake()
  const cache = withPlanHolderCache(f.repo)
  let open!: () => void
  f.hold(new Promise<void>((resolve) => (open = resolve)))
  const lookup = cache.spendable(1, 0) // read "no plan" before the grant, answers after it
  await cache.grant({ userId: 1 } as never)
  open()
  expect(await lookup).toEqual([])
  f.hold(undefined)
  expect(await cache.spendable(1, 0)).toHaveLength(1)
})

test('the memory lapses after a minute', async () => {
  const f = fake()
  let now = 0
  const cache = withPlanHolderCache(f.repo, () => now)
  await cache.spendable(1, 0)
  now = 59_999
  await cache.spendable(1, 0)
  expect(f.queries()).toBe(1)
  now = 60_000
  await cache.spendable(1, 0)
  expect(f.queries()).toBe(2)
})

test('holdsNoPlan answers from memory what spendable would: true only while "no plan" is remembered', async () => {
  const f = fake()
  let now = 0
  const cache = withPlanHolderCache(f.repo, () => now)
  expect(cache.holdsNoPlan!(1)).toBe(false) // never asked: the lookup must run
  await cache.spendable(1, 0)
  expect(cache.holdsNoPlan!(1)).toBe(true)
  await cache.grant({ userId: 1 } as never)
  expect(cache.holdsNoPlan!(1)).toBe(false)
  await cache.spendable(5, 0)
  cache.forgetHolder(5)
  expect(cache.holdsNoPlan!(5)).toBe(false)
  await cache.spendable(6, 0)
  now = 60_000
  expect(cache.holdsNoPlan!(6)).toBe(false)
  expect(f.queries()).toBe(3)
})
