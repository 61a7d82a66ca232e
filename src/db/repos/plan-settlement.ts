import { sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { PlanPeriod } from './subscriptions'

interface HeldRow {
  amountUsed: number
  amountTotal: number
  lastResetTime: number
}

/**
 * A held plan's use in `period`: its row's when the row is in that period; else what is left of the debt its period
 * left (its use beyond the quota: a cost no source could pay) once each period since has paid one quota of it. The SQL
 * of both dialects (`usedInSql`) reads the same.
 */
export function usedIn(row: HeldRow, period: PlanPeriod): number {
  if (row.lastResetTime >= period.start) return row.amountUsed
  if (row.amountTotal === 0 || !period.length) return 0
  return Math.max(0, row.amountUsed - row.amountTotal * periodsSince(row.lastResetTime, period))
}

/** Whole periods from the row's period start to `period`'s (rounded: monthly lengths are an average). */
const periodsSince = (last: number, period: PlanPeriod): number => Math.floor((period.start - last + Math.floor(period.length! / 2)) / period.length!)

/** `usedIn` as SQL over the columns (integer division in both dialects); `greatest` is SQLite's `max`. */
export function usedInSql(c: { used: SQLWrapper; total: SQLWrapper; last: SQLWrapper }, period: PlanPeriod, greatest: 'max' | 'greatest'): SQL {
  const fn = sql.raw(greatest)
  // integers inlined (not parameters): the division stays an integer one on PostgreSQL, and they are ours, never input
  const n = (v: number) => sql.raw(String(Math.trunc(v)))
  if (!period.length) return sql`(CASE WHEN ${c.last} >= ${n(period.start)} THEN ${c.used} ELSE 0 END)`
  return sql`(CASE WHEN ${c.last} >= ${n(period.start)} THEN ${c.used} WHEN ${c.total} > 0
    THEN ${fn}(${c.used} - ${c.total} * ((${n(period.start)} - ${c.last} + ${n(period.length / 2)}) / ${n(period.length)}), 0) ELSE 0 END)`
}

/**
 * The end of a take of `reserved` made in the period that began at `periodStart` (`reserved` 0: a sweep gave it back):
 * what the plan is charged and its new use. Unused quota goes back; a cost above the take is taken only as far as the
 * period's quota reaches (the caller finds the rest elsewhere). Once the plan reset, the old period's use is gone:
 * nothing is given back or added there.
 */
export function settleTake(held: HeldRow | undefined, periodStart: number, reserved: number, actual: number): { charged: number; used: number } {
  if (!held || held.lastResetTime !== periodStart) return { charged: Math.min(actual, reserved), used: held?.amountUsed ?? 0 }
  const room = held.amountTotal === 0 ? Number.MAX_SAFE_INTEGER : Math.max(0, held.amountTotal - held.amountUsed)
  const charged = actual > reserved ? reserved + Math.min(actual - reserved, room) : actual
  return { charged, used: Math.max(0, held.amountUsed - reserved + charged) }
}

/** What of an overdraw of `amount` that left the period's use at `used` lies beyond the quota `total` (0: no cap). */
export const beyondQuota = (amount: number, used: number, total: number): number => (total === 0 ? 0 : Math.min(amount, Math.max(0, used - total)))
