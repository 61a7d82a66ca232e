import type { ChannelStatRow } from './channel-stats'
import type { LogRow, NewLog, Page } from './rows'

export type { LogRow, NewLog } from './rows'

/** `logs.type`. No Drizzle at run time here: the metering writer thread imports it. */
export const LogType = { topup: 1, consume: 2, manage: 3, system: 4, error: 5 } as const

interface HourlyUsage {
  hour: number
  modelName: string
  count: number
  quota: number
  tokenUsed: number
}

export interface LogFilter {
  type?: number
  userId?: number
  username?: string
  tokenName?: string
  modelName?: string
  channelId?: number
  group?: string
  /** unix seconds, inclusive */
  start?: number
  /** unix seconds, inclusive */
  end?: number
  requestId?: string
}

/** Where a newest-first walk stopped: the last row's time and id. */
export interface LogCursor {
  createdAt: number
  id: number
}

export interface LogStat {
  quota: number
  rpm: number
  tpm: number
  /** consume rows matching the filter (requests) */
  count: number
  /** prompt + completion tokens of those rows */
  tokens: number
}

/**
 * Usage and audit logs, and the hourly usage tables (per user and model, per model) the dashboards read.
 * The relay's rows arrive in batches through `Repos.commitMetering`, not here.
 */
export interface LogRepo {
  /** Insert rows and their hourly sums in one transaction: all of them or none. */
  insertMany(rows: NewLog[]): Promise<void>
  /** Newest first (created_at, then id). */
  list(filter: LogFilter, offset: number, limit: number): Promise<Page<LogRow>>
  /** Up to `limit` rows after `before` in the same newest-first order (keyset: no offset to walk, no count), for exports. */
  listBefore(filter: LogFilter, before: LogCursor | undefined, limit: number): Promise<LogRow[]>
  /** Quota, request count and tokens of the consume rows matching the filter; rpm and tpm over the minute before `now`. */
  stat(filter: LogFilter, now: number): Promise<LogStat>
  count(filter?: LogFilter): Promise<number>
  /** Input tokens of the consume rows matching the filter, and how many of them the upstream read from its prompt cache. */
  cacheReads(filter: LogFilter): Promise<{ promptTokens: number; cacheReadTokens: number }>
  /** Per channel between two unix times (inclusive): requests, errors, p50/p95 duration of the successes (channel-stats.ts). */
  channelStats(start: number, end: number): Promise<ChannelStatRow[]>
  /** Hourly usage by model between two unix times (inclusive), for one user or everyone. */
  hourly(filter: { userId?: number; username?: string; start: number; end: number }): Promise<HourlyUsage[]>

  /** Delete up to `batch` rows created before `before` (unix seconds); returns how many went. */
  deleteBefore(before: number, batch: number): Promise<number>
  /** Pages the deletes freed that the file system has not got back yet (0 where the database manages its own space). */
  freePages(): Promise<number>
  /** Hand up to `pages` free pages back to the file system (all with 0); a no-op where there is no such step. */
  compact(pages?: number): Promise<void>
  /** Refresh the planner's statistics after deletes. */
  optimize(): Promise<void>
}
