import { CHANNEL_STATS_SQL, channelStatRow } from '../../repos/channel-stats'
import { and, count, desc, eq, gte, lt, lte, sql, sum, type SQL } from 'drizzle-orm'
import type { PgDb } from '../client'
import { logs, usageHourly, usageHourlyModel } from '../schema'
import { LogType, type LogCursor, type LogFilter, type LogRepo, type LogStat, type NewLog } from '../../repos/logs'
import { aggregatable, aggregatedTotals, type Totals } from '../../repos/log-totals'
import { insertLogsAtomically } from './log-insert'
import { eqInt } from './sql'

function whereOf(f: LogFilter): SQL | undefined {
  return and(
    f.type !== undefined ? eqInt(logs.type, f.type) : undefined,
    f.userId !== undefined ? eqInt(logs.userId, f.userId) : undefined,
    f.username !== undefined ? eq(logs.username, f.username) : undefined,
    f.tokenName !== undefined ? eq(logs.tokenName, f.tokenName) : undefined,
    f.modelName !== undefined ? eq(logs.modelName, f.modelName) : undefined,
    f.channelId !== undefined ? eqInt(logs.channelId, f.channelId) : undefined,
    f.group !== undefined ? eq(logs.group, f.group) : undefined,
    f.start !== undefined ? gte(logs.createdAt, f.start) : undefined,
    f.end !== undefined ? lte(logs.createdAt, f.end) : undefined,
    f.requestId !== undefined ? eq(logs.requestId, f.requestId) : undefined,
  )
}

const tokensOf = sql`${logs.promptTokens} + ${logs.completionTokens}`

/** Usage and audit logs on PostgreSQL, plus the hourly usage tables the dashboards read. */
export function createLogRepo(db: PgDb): LogRepo {
  const sumLogs = async (f: LogFilter): Promise<Totals> => {
    const [r] = await db.select({ q: sum(logs.quota), n: count(), t: sum(tokensOf) }).from(logs).where(whereOf({ ...f, type: LogType.consume }))
    return { quota: Number(r!.q ?? 0), count: r!.n, tokens: Number(r!.t ?? 0) }
  }

  const sumHours = async (f: LogFilter, from: number, to: number | undefined): Promise<Totals> => {
    const table = f.userId !== undefined ? usageHourly : usageHourlyModel
    const where = and(
      f.userId !== undefined ? eqInt(usageHourly.userId, f.userId) : undefined,
      f.modelName !== undefined ? eq(table.modelName, f.modelName) : undefined,
      gte(table.hour, from),
      to !== undefined ? lt(table.hour, to) : undefined,
    )
    const [r] = await db.select({ q: sum(table.quota), n: sum(table.count), t: sum(table.tokenUsed) }).from(table).where(where)
    return { quota: Number(r!.q ?? 0), count: Number(r!.n ?? 0), tokens: Number(r!.t ?? 0) }
  }

  const totalsSource = {
    oldest: async () => {
      const [r] = await db.select({ t: sql<string | null>`min(${logs.createdAt})` }).from(logs)
      return r?.t == null ? undefined : Number(r.t)
    },
    sumLogs,
    sumHours,
  }

  return {
    insertMany: async (rows: NewLog[]) => insertLogsAtomically(db.$client, rows),

    async list(filter: LogFilter, offset: number, limit: number) {
      const where = whereOf(filter)
      const items = await db.select().from(logs).where(where).orderBy(desc(logs.createdAt), desc(logs.id)).limit(limit).offset(offset)
      const [total] = await db.select({ n: count() }).from(logs).where(where)
      return { items, total: total!.n }
    },

    async listBefore(filter: LogFilter, before: LogCursor | undefined, limit: number) {
      const where = and(whereOf(filter), before ? sql`(${logs.createdAt}, ${logs.id}) < (${before.createdAt}, ${before.id})` : undefined)
      return db.select().from(logs).where(where).orderBy(desc(logs.createdAt), desc(logs.id)).limit(limit)
    },

    async stat(filter: LogFilter, now: number): Promise<LogStat> {
      const totals = aggregatable(filter) ? await aggregatedTotals(filter, totalsSource) : await sumLogs(filter)
      const [recent] = await db
        .select({ n: count(), t: sum(tokensOf) })
        .from(logs)
        .where(whereOf({ ...filter, type: LogType.consume, start: Math.max(filter.start ?? 0, now - 60) }))
      return { quota: totals.quota, rpm: recent!.n, tpm: Number(recent!.t ?? 0), count: totals.count, tokens: totals.tokens }
    },

    async deleteBefore(before: number, batch: number) {
      const ids = db.select({ id: logs.id }).from(logs).where(lt(logs.createdAt, before)).orderBy(logs.createdAt).limit(batch)
      return (await db.delete(logs).where(sql`${logs.id} IN ${ids}`).returning({ id: logs.id })).length
    },

    /** PostgreSQL keeps its own free space (VACUUM reuses it): nothing waits to be handed back. */
    freePages: async () => 0,
    compact: async () => {},
    /** Refresh the planner's statistics of the table deletes changed most. */
    async optimize() {
      await db.execute(sql`ANALYZE logs`)
    },

    async channelStats(start, end) {
      const result = await db.$client.unsafe(CHANNEL_STATS_SQL, [start, end])
      return (result as unknown as Record<string, unknown>[]).map(channelStatRow)
    },

    async cacheReads(filter) {
      const [r] = await db.select({ p: sum(logs.promptTokens), c: sum(logs.cacheReadTokens) }).from(logs).where(whereOf({ ...filter, type: LogType.consume }))
      return { promptTokens: Number(r?.p ?? 0), cacheReadTokens: Number(r?.c ?? 0) }
    },

    async hourly(filter) {
      const fromHour = Math.floor(filter.start / 3600) * 3600
      if (filter.userId === undefined && filter.username === undefined) {
        return db
          .select({ hour: usageHourlyModel.hour, modelName: usageHourlyModel.modelName, count: usageHourlyModel.count, quota: usageHourlyModel.quota, tokenUsed: usageHourlyModel.tokenUsed })
          .from(usageHourlyModel)
          .where(and(gte(usageHourlyModel.hour, fromHour), lte(usageHourlyModel.hour, filter.end)))
          .orderBy(usageHourlyModel.hour, usageHourlyModel.modelName)
          .limit(100_000)
      }
      const where = and(
        filter.userId !== undefined ? eqInt(usageHourly.userId, filter.userId) : undefined,
        filter.username !== undefined ? eq(usageHourly.username, filter.username) : undefined,
        gte(usageHourly.hour, fromHour),
        lte(usageHourly.hour, filter.end),
      )
      const rows = await db
        .select({
          hour: usageHourly.hour,
          modelName: usageHourly.modelName,
          count: sql<string>`sum(${usageHourly.count})`,
          quota: sql<string>`sum(${usageHourly.quota})`,
          tokenUsed: sql<string>`sum(${usageHourly.tokenUsed})`,
        })
        .from(usageHourly)
        .where(where)
        .groupBy(usageHourly.hour, usageHourly.modelName)
        .orderBy(usageHourly.hour, usageHourly.modelName)
        .limit(100_000)
      // sum() of int4/int8 is int8/numeric, which the driver hands back as text
      return rows.map((r) => ({ hour: r.hour, modelName: r.modelName, count: Number(r.count), quota: Number(r.quota), tokenUsed: Number(r.tokenUsed) }))
    },

    count: async (filter = {}) => (await db.select({ n: count() }).from(logs).where(whereOf(filter)))[0]!.n,
  }
}
