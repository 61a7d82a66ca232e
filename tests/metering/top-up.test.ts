import { expect, test } from 'bun:test'
import { topUp } from '../../src/metering/top-up'
import type { Reservation } from '../../src/metering/reserve'
import type { Usage } from '../../src/ir'

/** A realtime session's running reservation: topped up from the wallet's hold, never when a plan pays it. */
const usageOf = (input: number): Usage => ({ input: { noCache: input, cacheRead: 0, cacheWrite: 0 }, output: { text: 0, reasoning: 0 } }) as Usage

function reservation(plan: boolean): Reservation {
  return {
    price: { mode: 'ratio', model: 'gpt-realtime', ratio: 1, completion: 1, cacheRead: 1, cacheWrite: 1, group: 1 },
    reserved: 1000,
    fee: 0,
    quotaPerUnit: 500_000,
    tokenLimited: false,
    settled: false,
    ...(plan ? { plan: { subscriptionId: 1, periodStart: 0, walletAfter: true, tokenHeld: 0, debtor: { subscriptionId: 1, quotaResetPeriod: 'daily', quotaResetCustomSeconds: 0, startTime: 0 } } } : {}),
  } as unknown as Reservation
}

function wallet() {
  const taken: number[] = []
  return { taken, deps: { repos: { quota: { topUp: async (_hold: unknown, _u: number, _t: number, _l: boolean, amount: number) => (taken.push(amount), { ok: true, userQuota: 1e9 }) } } } as never }
}

test('the wallet pays: past half the first reservation it is topped up by the spend plus the first size again', async () => {
  const w = wallet()
  const r = reservation(false)
  expect(await topUp(w.deps, r, { userId: 1, tokenId: 1 }, usageOf(400))).toBe(true)
  expect(w.taken).toEqual([])
  expect(await topUp(w.deps, r, { userId: 1, tokenId: 1 }, usageOf(600))).toBe(true)
  expect(w.taken).toEqual([600])
  expect(r.reserved).toBe(1600)
})

test('a plan pays: the wallet is never taken from; the session runs within the plan’s reservation and ends past it', async () => {
  const w = wallet()
  const r = reservation(true)
  expect(await topUp(w.deps, r, { userId: 1, tokenId: 1 }, usageOf(600))).toBe(true)
  expect(await topUp(w.deps, r, { userId: 1, tokenId: 1 }, usageOf(1000))).toBe(false)
  expect(w.taken).toEqual([])
  expect(r.reserved).toBe(1000)
})
