import type { LogFilter } from './logs'

/** What the log stat sums over the consume rows of a filter. */
export interface Totals {
  quota: number
  count: number
  tokens: number
}

const NO_TOTALS: Totals = { quota: 0, count: 0, tokens: 0 }

const addTotals = (...parts: Totals[]): Totals =>
  parts.reduce((a, b) => ({ quota: a.quota + b.quota, count: a.count + b.count, tokens: a.tokens + b.tokens }), NO_TOTALS)

/** A dialect's three reads the stat is made of. */
export interface TotalsSource {
  /** created_at of the oldest log row (undefined: no rows) */
  oldest(): Promise<number | undefined>
  /** totals of the consume rows matching the filter, from the logs */
  sumLogs(f: LogFilter): Promise<Totals>
  /** totals of whole hours [from, to) from the hourly tables: per user, or per model for everyone */
  sumHours(f: LogFilter, from: number, to: number | undefined): Promise<Totals>
}

/** Filters the hourly tables can answer: user, model and time. */
export const aggregatable = (f: LogFilter): boolean =>
  f.username === undefined && f.tokenName === undefined && f.channelId === undefined && f.group === undefined && f.requestId === undefined

/**
 * The stat's totals for a filter of user, model and time only, without summing every row: whole hours come
 * from the hourly tables, the partial hours at either end from the logs. Hours before the oldest log row
 * are left out, so the answer matches the logs after retention (the hourly tables keep older hours); the
 * oldest second itself is read from the logs too, since retention may have taken part of it.
 */
export async function aggregatedTotals(f: LogFilter, source: TotalsSource): Promise<Totals> {
  const oldest = await source.oldest()
  if (oldest === undefined) return NO_TOTALS
  const from = Math.max(f.start ?? 0, oldest)
  if (f.end !== undefined && from > f.end) return NO_TOTALS
  const firstHour = Math.ceil(Math.max(from, oldest + 1) / 3600) * 3600
  const endHour = f.end !== undefined ? Math.floor((f.end + 1) / 3600) * 3600 : undefined // exclusive
  if (endHour !== undefined && firstHour >= endHour) return source.sumLogs({ ...f, start: from })
  const head = firstHour > from ? await source.sumLogs({ ...f, start: from, end: firstHour - 1 }) : NO_TOTALS
  const tail = endHour !== undefined && f.end! >= endHour ? await source.sumLogs({ ...f, start: endHour }) : NO_TOTALS
  return addTotals(head, await source.sumHours(f, firstHour, endHour), tail)
}
