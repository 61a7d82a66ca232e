import type { PlanPeriod } from '../db/repos/subscriptions'

export { usedIn } from '../db/repos/plan-settlement'

export const RESET_PERIODS = ['never', 'daily', 'weekly', 'monthly', 'custom'] as const
export const DURATION_UNITS = ['year', 'month', 'day', 'hour', 'custom'] as const

const DAY = 86_400

/**
 * The quota period `now` (unix seconds) falls in, in UTC: daily from midnight, weekly from Monday 00:00, monthly from
 * the 1st, custom every `customSeconds` from the plan's start; `never` is one period for the plan's whole life. Every
 * node computes the same period from its clock, so a reset needs no job that could miss it.
 */
export function periodAt(rule: string, customSeconds: number, startTime: number, now: number): PlanPeriod {
  switch (rule) {
    case 'daily': {
      const start = Math.floor(now / DAY) * DAY
      return { start, next: start + DAY }
    }
    case 'weekly': {
      const day = Math.floor(now / DAY)
      const start = (day - ((day + 3) % 7)) * DAY // 1970-01-01 was a Thursday: (day + 3) % 7 is 0 on Mondays
      return { start, next: start + 7 * DAY }
    }
    case 'monthly': {
      const d = new Date(now * 1000)
      return { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000, next: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000 }
    }
    case 'custom': {
      if (customSeconds <= 0) return { start: 0, next: 0 }
      const start = startTime + Math.floor(Math.max(0, now - startTime) / customSeconds) * customSeconds
      return { start, next: start + customSeconds }
    }
    default:
      return { start: 0, next: 0 }
  }
}

const LENGTHS: Record<string, number> = { daily: DAY, weekly: 7 * DAY, monthly: 2_629_746 /* 365.2425 days / 12 */ }

/** `periodAt` with the period's length (`PlanPeriod.length`), by which a debt is carried into the periods after it. */
export function spendPeriod(rule: string, customSeconds: number, startTime: number, now: number): PlanPeriod {
  const period = periodAt(rule, customSeconds, startTime, now)
  const length = rule === 'custom' ? customSeconds : LENGTHS[rule]
  return length && length > 0 ? { ...period, length } : period
}

/** When a plan bought at `start` ends (new-api's duration units; months and years by the calendar, in UTC). */
export function planEnd(plan: { durationUnit: string; durationValue: number; customSeconds: number }, start: number): number {
  const d = new Date(start * 1000)
  switch (plan.durationUnit) {
    case 'year':
      return Date.UTC(d.getUTCFullYear() + plan.durationValue, d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + plan.durationValue, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000
    case 'day':
      return start + plan.durationValue * DAY
    case 'hour':
      return start + plan.durationValue * 3600
    default:
      return start + plan.customSeconds
  }
}
