/** Plan periods are computed from the clock (UTC): the boundaries of each reset rule, and a plan's end by its unit. */
import { expect, test } from 'bun:test'
import { periodAt, planEnd, spendPeriod, usedIn } from '../../src/subscriptions/period'
import { inList, normalizePreference } from '../../src/subscriptions/funding'

const at = (iso: string) => Date.parse(iso) / 1000

test('daily: from midnight UTC to the next; the last second of a day is still in it', () => {
  expect(periodAt('daily', 0, 0, at('2026-11-29T23:59:59Z'))).toEqual({ start: at('2026-11-29T00:00:00Z'), next: at('2026-11-30T00:00:00Z') })
  expect(periodAt('daily', 0, 0, at('2026-11-30T00:00:00Z')).start).toBe(at('2026-11-30T00:00:00Z'))
})

test('weekly: from Monday 00:00 UTC (a Sunday is the end of its week)', () => {
  expect(periodAt('weekly', 0, 0, at('2026-11-29T12:00:00Z'))).toEqual({ start: at('2026-11-23T00:00:00Z'), next: at('2026-11-30T00:00:00Z') }) // a Sunday
  expect(periodAt('weekly', 0, 0, at('2026-11-30T00:00:00Z')).start).toBe(at('2026-11-30T00:00:00Z')) // the Monday
})

test('monthly: from the 1st, months of any length, across a year', () => {
  expect(periodAt('monthly', 0, 0, at('2026-02-28T23:00:00Z'))).toEqual({ start: at('2026-02-01T00:00:00Z'), next: at('2026-03-01T00:00:00Z') })
  expect(periodAt('monthly', 0, 0, at('2026-12-31T23:59:59Z')).next).toBe(at('2027-01-01T00:00:00Z'))
})

test("custom: every N seconds from the plan's start; never: one period", () => {
  const start = at('2026-11-29T10:00:00Z')
  expect(periodAt('custom', 3600, start, start + 3599)).toEqual({ start, next: start + 3600 })
  expect(periodAt('custom', 3600, start, start + 7200)).toEqual({ start: start + 7200, next: start + 10_800 })
  expect(periodAt('never', 0, start, start + 10 ** 8)).toEqual({ start: 0, next: 0 })
})

test('a plan ends by its unit: calendar months and years, days, hours, custom seconds', () => {
  const start = at('2026-01-31T08:00:00Z')
  expect(planEnd({ durationUnit: 'month', durationValue: 1, customSeconds: 0 }, start)).toBe(at('2026-03-03T08:00:00Z')) // Date.UTC rolls Feb 31 over, as Go's AddDate does
  expect(planEnd({ durationUnit: 'year', durationValue: 1, customSeconds: 0 }, start)).toBe(at('2027-01-31T08:00:00Z'))
  expect(planEnd({ durationUnit: 'day', durationValue: 30, customSeconds: 0 }, start)).toBe(start + 30 * 86_400)
  expect(planEnd({ durationUnit: 'hour', durationValue: 2, customSeconds: 0 }, start)).toBe(start + 7200)
  expect(planEnd({ durationUnit: 'custom', durationValue: 0, customSeconds: 90 }, start)).toBe(start + 90)
})

test('what a plan covers: comma lists, a trailing * as a prefix, empty = all; an unknown preference reads as plan first', () => {
  expect(inList('', 'gpt-4o')).toBe(true)
  expect(inList('gpt-4o, claude-*', 'claude-3-haiku')).toBe(true)
  expect(inList('gpt-4o,claude-*', 'gpt-4o-mini')).toBe(false)
  expect(normalizePreference('wallet_only')).toBe('wallet_only')
  expect(normalizePreference('nonsense')).toBe('subscription_first')
})

test("a plan's debt: each period since the row's pays one quota of it; monthly periods counted right across any months", () => {
  const row = (lastResetTime: number, amountUsed: number) => ({ lastResetTime, amountUsed, amountTotal: 1000 })
  const day = spendPeriod('daily', 0, 0, at('2026-11-29T12:00:00Z'))
  expect(day.length).toBe(86_400)
  expect(usedIn(row(day.start, 3500), day)).toBe(3500) // the row's own period: its use
  expect(usedIn(row(day.start - 86_400, 3500), day)).toBe(2500) // the day before left 2,500 beyond its quota
  expect(usedIn(row(day.start - 3 * 86_400, 3500), day)).toBe(500) // two unused days paid 2,000 of it
  expect(usedIn(row(day.start - 5 * 86_400, 3500), day)).toBe(0)
  expect(usedIn({ ...row(day.start - 86_400, 3500), amountTotal: 0 }, day)).toBe(0) // no cap, no debt
  expect(usedIn(row(0, 3500), spendPeriod('never', 0, 0, at('2026-11-29T12:00:00Z')))).toBe(3500) // one period for life
  // every month start from 2020 to 2040 against every later one up to 3 years on: whole months, by the average length
  for (let y = 2020; y < 2040; y++) {
    for (let m = 0; m < 12; m++) {
      const last = Date.UTC(y, m, 1) / 1000
      for (let k = 0; k <= 36; k += 1) {
        const now = spendPeriod('monthly', 0, 0, Date.UTC(y, m + k, 15) / 1000)
        expect(usedIn(row(last, 100_000), now)).toBe(k === 0 ? 100_000 : 100_000 - 1000 * k)
      }
    }
  }
})
