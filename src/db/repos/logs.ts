import { and, count, desc, eq, gte, lt, lte, sql, sum, type SQL } from 'drizzle-orm'
import type { Db } from '../client'
import { logs, usageHourly } from '../schema'
import type { Page } from './users'

export type LogRow = typeof logs.$inferSelect
export type NewLog = typeof logs.$inferInsert
export interface HourlyUsage {
  hour: number
  modelName: string
  count: number
  quota: number
  tokenUsed: number
}

export const LogType = { topup: 1, consume: 2, manage: 3, system: 4, error: 5 } as const

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

export interface LogStat {
  quota: number
  rpm: number
  tpm: number
}

const ROWS_PER_INSERT = 400 // 25 columns × 400 rows stays far below SQLite's bound-parameter limit

function whereOf(f: LogFilter): SQL | undefined {
  return and(
    f.type !== undefined ? eq(logs.type, f.type) : undefined,
    f.userId !== undefined ? eq(logs.userId, f.userId) : undefined,
    f.username !== undefined ? eq(logs.username, f.username) : undefined,
    f.tokenName !== undefined ? eq(logs.tokenName, f.tokenName) : undefined,
    f.modelName !== undefined ? eq(logs.modelName, f.modelName) : undefined,
    f.channelId !== undefined ? eq(logs.channelId, f.channelId) : undefined,
    f.group !== undefined ? eq(logs.group, f.group) : undefined,
    f.start !== undefined ? gte(logs.createdAt, f.start) : undefined,
    f.end !== undefined ? lte(logs.createdAt, f.end) : undefined,
    f.requestId !== undefined ? eq(logs.requestId, f.requestId) : undefined,
  )
}

/** Usage and audit logs, plus the hourly usage table the dashboards read. */
export function createLogRepo(db: Db) {
  /** Hourly sums of the consume rows in `rows`, upserted into usage_hourly. */
  function addHourly(tx: Pick<Db, 'insert'>, rows: NewLog[]): void {
    const sums = new Map<string, typeof usageHourly.$inferInsert>()
    for (const row of rows) {
      if (row.type !== LogType.consume) continue
      const hour = Math.floor((row.createdAt ?? Math.floor(Date.now() / 1000)) / 3600) * 3600
      const key = `${row.userId}\u0000${row.modelName}\u0000${hour}`
      const tokens = (row.promptTokens ?? 0) + (row.completionTokens ?? 0)
      const s = sums.get(key)
      if (s) {
        s.count! += 1
        s.quota! += row.quota ?? 0
        s.tokenUsed! += tokens
      } else {
        sums.set(key, { userId: row.userId ?? 0, username: row.username ?? '', modelName: row.modelName ?? '', hour, count: 1, quota: row.quota ?? 0, tokenUsed: tokens })
      }
    }
    for (const s of sums.values()) {
      tx.insert(usageHourly)
        .values(s)
        .onConflictDoUpdate({
          target: [usageHourly.userId, usageHourly.modelName, usageHourly.hour],
          set: {
            count: sql`${usageHourly.count} + excluded.count`,
            quota: sql`${usageHourly.quota} + excluded.quota`,
            tokenUsed: sql`${usageHourly.tokenUsed} + excluded.token_used`,
            username: sql`excluded.username`,
          },
        })
        .run()
    }
  }

  return {
    /** Insert rows (and their hourly sums) in one transaction: all of them or none. */
    insertMany(rows: NewLog[]): void {
      if (rows.length === 0) return
      db.transaction((tx) => {
        for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) tx.insert(logs).values(rows.slice(i, i + ROWS_PER_INSERT)).run()
        addHourly(tx, rows)
      })
    },

    list(filter: LogFilter, offset: number, limit: number): Page<LogRow> {
      const where = whereOf(filter)
      const items = db.select().from(logs).where(where).orderBy(desc(logs.id)).limit(limit).offset(offset).all()
      const total = db.select({ n: count() }).from(logs).where(where).get()!.n
      return { items, total }
    },

    /** Quota of the consume rows matching the filter; rpm and tpm over the minute before `now`. */
    stat(filter: LogFilter, now: number): LogStat {
      const consume = { ...filter, type: LogType.consume }
      const quota = db.select({ q: sum(logs.quota) }).from(logs).where(whereOf(consume)).get()!.q
      const recent = db
        .select({ n: count(), t: sum(sql`${logs.promptTokens} + ${logs.completionTokens}`) })
        .from(logs)
        .where(whereOf({ ...consume, start: Math.max(filter.start ?? 0, now - 60) }))
        .get()!
      return { quota: Number(quota ?? 0), rpm: recent.n, tpm: Number(recent.t ?? 0) }
    },

    /** Delete up to `batch` rows created before `before` (unix seconds); returns how many went. */
    deleteBefore(before: number, batch: number): number {
      const ids = db.select({ id: logs.id }).from(logs).where(lt(logs.createdAt, before)).orderBy(logs.createdAt).limit(batch)
      return db.delete(logs).where(sql`${logs.id} IN ${ids}`).returning({ id: logs.id }).all().length
    },

    /** Hand free pages back to the file system (needs auto_vacuum = INCREMENTAL; a no-op otherwise). */
    compact(pages = 0): void {
      db.$client.run(pages > 0 ? `PRAGMA incremental_vacuum(${Math.floor(pages)})` : 'PRAGMA incremental_vacuum')
    },

    /** Hourly usage by model between two unix times (inclusive), for one user or everyone. */
    hourly(filter: { userId?: number; username?: string; start: number; end: number }): HourlyUsage[] {
      const where = and(
        filter.userId !== undefined ? eq(usageHourly.userId, filter.userId) : undefined,
        filter.username !== undefined ? eq(usageHourly.username, filter.username) : undefined,
        gte(usageHourly.hour, Math.floor(filter.start / 3600) * 3600),
        lte(usageHourly.hour, filter.end),
      )
      return db
        .select({
          hour: usageHourly.hour,
          modelName: usageHourly.modelName,
          count: sql<number>`sum(${usageHourly.count})`,
          quota: sql<number>`sum(${usageHourly.quota})`,
          tokenUsed: sql<number>`sum(${usageHourly.tokenUsed})`,
        })
        .from(usageHourly)
        .where(where)
        .groupBy(usageHourly.hour, usageHourly.modelName)
        .orderBy(usageHourly.hour, usageHourly.modelName)
        .limit(100_000)
        .all()
    },

    count: (filter: LogFilter = {}) => db.select({ n: count() }).from(logs).where(whereOf(filter)).get()!.n,
  }
}

export type LogRepo = ReturnType<typeof createLogRepo>
