import { CHANNEL_STATS_SQL, channelStatRow } from '../../repos/channel-stats'
import { and, count, desc, eq, gte, lt, lte, sql, sum, type SQL } from 'drizzle-orm'
import type { Db } from '../client'
import { logs, usageHourly, usageHourlyModel } from '../schema'
import { LogType, type LogCursor, type LogFilter, type LogRepo, type LogStat, type NewLog } from '../../repos/logs'
import { aggregatable, aggregatedTotals, type Totals } from '../../repos/log-totals'
import { createLogInserter } from './log-insert'

function whereOf(f: LogFilter): SQL | undefined {
  return and(
    // `+type` keeps SQLite off the (type, created_at) index when a far more selective one applies
    f.type !== undefined ? (f.userId !== undefined || f.modelName !== undefined || f.requestId !== undefined ? sql`+${logs.type} = ${f.type}` : eq(logs.type, f.type)) : undefined,
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
export function createLogRepo(db: Db): LogRepo {
  const oldestLog = db.$client.prepare<{ t: number | null }, []>('SELECT min(created_at) AS t FROM logs')
  const insertLogs = createLogInserter(db.$client)
  const insertTx = db.$client.transaction(insertLogs)

  const sumLogs = (f: LogFilter): Totals => {
    const r = db
      .select({ q: sum(logs.quota), n: count(), t: sum(sql`${logs.promptTokens} + ${logs.completionTokens}`) })
      .from(logs)
      .where(whereOf({ ...f, type: LogType.consume }))
      .get()!
    return { quota: Number(r.q ?? 0), count: r.n, tokens: Number(r.t ?? 0) }
  }

  /** Totals of the consume rows in whole hours [from, to) from the hourly tables: per user, or per model for everyone. */
  const sumHours = (f: LogFilter, from: number, to: number | undefined): Totals => {
    const table = f.userId !== undefined ? usageHourly : usageHourlyModel
    const where = and(
      f.userId !== undefined ? eq(usageHourly.userId, f.userId) : undefined,
      f.modelName !== undefined ? eq(table.modelName, f.modelName) : undefined,
      gte(table.hour, from),
      to !== undefined ? lt(table.hour, to) : undefined,
    )
    const r = db.select({ q: sum(table.quota), n: sum(table.count), t: sum(table.tokenUsed) }).from(table).where(where).get()!
    return { quota: Number(r.q ?? 0), count: Number(r.n ?? 0), tokens: Number(r.t ?? 0) }
  }

  const totalsSource = {
    oldest: async () => oldestLog.get()?.t ?? undefined,
    sumLogs: async (f: LogFilter) => sumLogs(f),
    sumHours: async (f: LogFilter, from: number, to: number | undefined) => sumHours(f, from, to),
  }

  return {
    /** Insert rows (and their hourly sums) in one transaction: all of them or none. */
    async insertMany(rows: NewLog[]) {
      if (rows.length > 0) insertTx(rows)
    },

    async list(filter: LogFilter, offset: number, limit: number) {
      const where = whereOf(filter)
      // newest first by created_at, then id: every (…, created_at) index (rowid last) serves this order without a sort
      const items = db.select().from(logs).where(where).orderBy(desc(logs.createdAt), desc(logs.id)).limit(limit).offset(offset).all()
      const total = db.select({ n: count() }).from(logs).where(where).get()!.n
      return { items, total }
    },

    async listBefore(filter: LogFilter, before: LogCursor | undefined, limit: number) {
      const where = and(whereOf(filter), before ? sql`(${logs.createdAt}, ${logs.id}) < (${before.createdAt}, ${before.id})` : undefined)
      return db.select().from(logs).where(where).orderBy(desc(logs.createdAt), desc(logs.id)).limit(limit).all()
    },

    /** Quota, request count and tokens of the consume rows matching the filter; rpm and tpm over the minute before `now`. */
    async stat(filter: LogFilter, now: number): Promise<LogStat> {
      const consume = { ...filter, type: LogType.consume }
      const totals = aggregatable(filter) ? await aggregatedTotals(filter, totalsSource) : sumLogs(filter)
      const recent = db
        .select({ n: count(), t: sum(sql`${logs.promptTokens} + ${logs.completionTokens}`) })
        .from(logs)
        .where(whereOf({ ...consume, start: Math.max(filter.start ?? 0, now - 60) }))
        .get()!
      return { quota: totals.quota, rpm: recent.n, tpm: Number(recent.t ?? 0), count: totals.count, tokens: totals.tokens }
    },

    /** Delete up to `batch` rows created before `before` (unix seconds); returns how many went. */
    async deleteBefore(before: number, batch: number) {
      const ids = db.select({ id: logs.id }).from(logs).where(lt(logs.createdAt, before)).orderBy(logs.createdAt).limit(batch)
      return db.delete(logs).where(sql`${logs.id} IN ${ids}`).returning({ id: logs.id }).all().length
    },

    /** Pages on the free list, waiting for `compact`. */
    freePages: async () => db.$client.query<{ freelist_count: number }, []>('PRAGMA freelist_count').get()!.freelist_count,

    /** Hand free pages back to the file system (needs auto_vacuum = INCREMENTAL; a no-op otherwise). */
    async compact(pages = 0) {
      db.$client.run(pages > 0 ? `PRAGMA incremental_vacuum(${Math.floor(pages)})` : 'PRAGMA incremental_vacuum')
    },

    /** Refresh the planner's statistics where they drifted (cheap; SQLite decides what to analyze). */
    async optimize() {
      db.$client.run('PRAGMA optimize')
    },

    // bun:sqlite binds $1 and $2 by position
    channelStats: async (start, end) => db.$client.query<Record<string, unknown>, [number, number]>(CHANNEL_STATS_SQL).all(start, end).map(channelStatRow),

    async cacheReads(filter) {
      const r = db.select({ p: sum(logs.promptTokens), c: sum(logs.cacheReadTokens) }).from(logs).where(whereOf({ ...filter, type: LogType.consume })).get()
      return { promptTokens: Number(r?.p ?? 0), cacheReadTokens: Number(r?.c ?? 0) }
    },

    /** Hourly usage by model between two unix times (inclusive), for one user or everyone. */
    async hourly(filter) {
      if (filter.userId === undefined && filter.username === undefined) {
        // everyone: the per-model table has a few rows per hour, the per-user one a row per user and model
        return db
          .select({ hour: usageHourlyModel.hour, modelName: usageHourlyModel.modelName, count: usageHourlyModel.count, quota: usageHourlyModel.quota, tokenUsed: usageHourlyModel.tokenUsed })
          .from(usageHourlyModel)
          .where(and(gte(usageHourlyModel.hour, Math.floor(filter.start / 3600) * 3600), lte(usageHourlyModel.hour, filter.end)))
          .orderBy(usageHourlyModel.hour, usageHourlyModel.modelName)
          .limit(100_000)
          .all()
      }
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

    count: async (filter = {}) => db.select({ n: count() }).from(logs).where(whereOf(filter)).get()!.n,
  }
}
