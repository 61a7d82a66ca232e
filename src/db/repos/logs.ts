import { and, count, desc, eq, gte, lt, lte, sql, sum, type SQL } from 'drizzle-orm'
import type { Db } from '../client'
import { logs, usageHourly, usageHourlyModel } from '../schema'
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

const COLUMNS = [
  ['created_at', 'createdAt'], ['type', 'type'], ['user_id', 'userId'], ['username', 'username'], ['token_id', 'tokenId'],
  ['token_name', 'tokenName'], ['model_name', 'modelName'], ['upstream_model', 'upstreamModel'], ['channel_id', 'channelId'],
  ['"group"', 'group'], ['prompt_tokens', 'promptTokens'], ['completion_tokens', 'completionTokens'],
  ['cache_read_tokens', 'cacheReadTokens'], ['cache_write_tokens', 'cacheWriteTokens'], ['reasoning_tokens', 'reasoningTokens'],
  ['quota', 'quota'], ['use_time_ms', 'useTimeMs'], ['first_token_ms', 'firstTokenMs'], ['is_stream', 'isStream'],
  ['status_code', 'statusCode'], ['ip', 'ip'], ['request_id', 'requestId'], ['content', 'content'], ['other', 'other'],
] as const

/** Usage and audit logs, plus the hourly usage table the dashboards read. */
export function createLogRepo(db: Db) {
  // The batch insert is the hot write: prepared statements inside one transaction are several times cheaper
  // than the query builder.
  const insertRows = (n: number) =>
    db.$client.prepare(`INSERT INTO logs (${COLUMNS.map(([c]) => c).join(', ')}) VALUES ${Array(n).fill(`(${COLUMNS.map(() => '?').join(', ')})`).join(', ')}`)
  const insertRow = insertRows(1)
  // rows go in 32 at a time: one statement run per 32 rows costs ~35% less per row than one per row
  const CHUNK = 32
  const insertChunk = insertRows(CHUNK)
  const addHour = db.$client.prepare(
    `INSERT INTO usage_hourly (user_id, username, model_name, hour, count, quota, token_used) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
     ON CONFLICT (user_id, model_name, hour) DO UPDATE SET count = count + excluded.count, quota = quota + excluded.quota,
       token_used = token_used + excluded.token_used, username = excluded.username`,
  )
  const addModelHour = db.$client.prepare(
    `INSERT INTO usage_hourly_model (hour, model_name, count, quota, token_used) VALUES (?1, ?2, ?3, ?4, ?5)
     ON CONFLICT (hour, model_name) DO UPDATE SET count = count + excluded.count, quota = quota + excluded.quota,
       token_used = token_used + excluded.token_used`,
  )
  const oldestLog = db.$client.prepare<{ t: number | null }, []>('SELECT min(created_at) AS t FROM logs')
  const now = () => Math.floor(Date.now() / 1000)
  const TEXT = new Set<string>(['username', 'tokenName', 'modelName', 'upstreamModel', 'group', 'ip', 'requestId', 'content', 'other'])
  // column defaults as the schema declares them: '' for text, 0 for numbers, now for created_at
  const valuesOf = (row: NewLog): (string | number)[] =>
    COLUMNS.map(([, field]) => {
      const v = row[field]
      if (field === 'createdAt') return (v as number | undefined) ?? now()
      if (field === 'isStream') return v ? 1 : 0
      return (v ?? (TEXT.has(field) ? '' : 0)) as string | number
    })
  const insertTx = db.$client.transaction((rows: NewLog[]) => {
    let i = 0
    for (; i + CHUNK <= rows.length; i += CHUNK) insertChunk.run(...rows.slice(i, i + CHUNK).flatMap(valuesOf))
    for (; i < rows.length; i++) insertRow.run(...valuesOf(rows[i]!))
    const sums = new Map<string, [number, string, string, number, number, number, number]>()
    for (const row of rows) {
      if (row.type !== LogType.consume) continue
      const hour = Math.floor((row.createdAt ?? now()) / 3600) * 3600
      const key = `${row.userId}\u0000${row.modelName}\u0000${hour}`
      const tokens = (row.promptTokens ?? 0) + (row.completionTokens ?? 0)
      const s = sums.get(key)
      if (s) {
        s[4] += 1
        s[5] += row.quota ?? 0
        s[6] += tokens
      } else sums.set(key, [row.userId ?? 0, row.username ?? '', row.modelName ?? '', hour, 1, row.quota ?? 0, tokens])
    }
    for (const s of sums.values()) addHour.run(...s)
    const models = new Map<string, [number, string, number, number, number]>()
    for (const [, , model, hour, n, quota, tokens] of sums.values()) {
      const key = `${model}\u0000${hour}`
      const m = models.get(key)
      if (m) {
        m[2] += n
        m[3] += quota
        m[4] += tokens
      } else models.set(key, [hour, model, n, quota, tokens])
    }
    for (const m of models.values()) addModelHour.run(...m)
  })

  const sumLogQuota = (f: LogFilter): number =>
    Number(db.select({ q: sum(logs.quota) }).from(logs).where(whereOf({ ...f, type: LogType.consume })).get()!.q ?? 0)

  /** Quota of the consume rows in whole hours [from, to) from the hourly tables: per user, or per model for everyone. */
  const sumHourQuota = (f: LogFilter, from: number, to: number | undefined): number => {
    const table = f.userId !== undefined ? usageHourly : usageHourlyModel
    const where = and(
      f.userId !== undefined ? eq(usageHourly.userId, f.userId) : undefined,
      f.modelName !== undefined ? eq(table.modelName, f.modelName) : undefined,
      gte(table.hour, from),
      to !== undefined ? lt(table.hour, to) : undefined,
    )
    return Number(db.select({ q: sum(table.quota) }).from(table).where(where).get()!.q ?? 0)
  }

  /**
   * The stat's quota for a filter of user, model and time only, without summing every row: whole hours come
   * from the hourly tables, the partial hours at either end from the logs. Hours before the oldest log row
   * are left out, so the answer matches the logs after retention (the hourly tables keep older hours); the
   * oldest second itself is read from the logs too, since retention may have taken part of it.
   */
  const aggregatedQuota = (f: LogFilter): number => {
    const oldest = oldestLog.get()?.t
    if (oldest === null || oldest === undefined) return 0
    const from = Math.max(f.start ?? 0, oldest)
    if (f.end !== undefined && from > f.end) return 0
    const firstHour = Math.ceil(Math.max(from, oldest + 1) / 3600) * 3600
    const endHour = f.end !== undefined ? Math.floor((f.end + 1) / 3600) * 3600 : undefined // exclusive
    if (endHour !== undefined && firstHour >= endHour) return sumLogQuota({ ...f, start: from })
    const head = firstHour > from ? sumLogQuota({ ...f, start: from, end: firstHour - 1 }) : 0
    const tail = endHour !== undefined && f.end! >= endHour ? sumLogQuota({ ...f, start: endHour }) : 0
    return head + sumHourQuota(f, firstHour, endHour) + tail
  }
  /** Filters the hourly tables can answer: user, model and time. */
  const aggregatable = (f: LogFilter) =>
    f.username === undefined && f.tokenName === undefined && f.channelId === undefined && f.group === undefined && f.requestId === undefined

  return {
    /** Insert rows (and their hourly sums) in one transaction: all of them or none. */
    insertMany(rows: NewLog[]): void {
      if (rows.length > 0) insertTx(rows)
    },

    list(filter: LogFilter, offset: number, limit: number): Page<LogRow> {
      const where = whereOf(filter)
      // newest first by created_at, then id: every (…, created_at) index (rowid last) serves this order without a sort
      const items = db.select().from(logs).where(where).orderBy(desc(logs.createdAt), desc(logs.id)).limit(limit).offset(offset).all()
      const total = db.select({ n: count() }).from(logs).where(where).get()!.n
      return { items, total }
    },

    /** Quota of the consume rows matching the filter; rpm and tpm over the minute before `now`. */
    stat(filter: LogFilter, now: number): LogStat {
      const consume = { ...filter, type: LogType.consume }
      const quota = aggregatable(filter) ? aggregatedQuota(filter) : sumLogQuota(filter)
      const recent = db
        .select({ n: count(), t: sum(sql`${logs.promptTokens} + ${logs.completionTokens}`) })
        .from(logs)
        .where(whereOf({ ...consume, start: Math.max(filter.start ?? 0, now - 60) }))
        .get()!
      return { quota, rpm: recent.n, tpm: Number(recent.t ?? 0) }
    },

    /** Delete up to `batch` rows created before `before` (unix seconds); returns how many went. */
    deleteBefore(before: number, batch: number): number {
      const ids = db.select({ id: logs.id }).from(logs).where(lt(logs.createdAt, before)).orderBy(logs.createdAt).limit(batch)
      return db.delete(logs).where(sql`${logs.id} IN ${ids}`).returning({ id: logs.id }).all().length
    },

    /** Hand free pages back to the file system (needs auto_vacuum = INCREMENTAL; a no-op otherwise). */
    /** Pages on the free list, waiting for `compact`. */
    freePages: (): number => db.$client.query<{ freelist_count: number }, []>('PRAGMA freelist_count').get()!.freelist_count,

    compact(pages = 0): void {
      db.$client.run(pages > 0 ? `PRAGMA incremental_vacuum(${Math.floor(pages)})` : 'PRAGMA incremental_vacuum')
    },

    /** Refresh the planner's statistics where they drifted (cheap; SQLite decides what to analyze). */
    optimize(): void {
      db.$client.run('PRAGMA optimize')
    },

    /** Hourly usage by model between two unix times (inclusive), for one user or everyone. */
    hourly(filter: { userId?: number; username?: string; start: number; end: number }): HourlyUsage[] {
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

    count: (filter: LogFilter = {}) => db.select({ n: count() }).from(logs).where(whereOf(filter)).get()!.n,
  }
}

export type LogRepo = ReturnType<typeof createLogRepo>
