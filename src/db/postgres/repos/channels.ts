import { and, count, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm'
import type { PgDb } from '../client'
import { abilities, channels } from '../schema'
import { abilitiesOf, ChannelStatus, type ChannelFilter, type ChannelPatch, type ChannelRepo, type ChannelRow, type NewChannel } from '../../repos/channels'
import { advanceIdentity, contains, eqInt, first, isInt4, keywordId, maxGivenId, type PgTx } from './sql'

/**
 * Channels and their abilities on PostgreSQL. Every write rewrites the touched channels' abilities in the same
 * transaction, so the routing index in the database can never drift from the channels.
 */
export function createChannelRepo(db: PgDb): ChannelRepo {
  async function rewriteAbilities(tx: PgTx, rows: ChannelRow[]): Promise<void> {
    if (rows.length === 0) return
    await tx.delete(abilities).where(inArray(abilities.channelId, rows.map((r) => r.id)))
    const fresh = rows.flatMap(abilitiesOf)
    for (let i = 0; i < fresh.length; i += 1000) await tx.insert(abilities).values(fresh.slice(i, i + 1000))
  }

  /** Apply `patch` to the channels matching `where` and rewrite their abilities, in one transaction. */
  async function updateWhere(where: SQL | undefined, patch: ChannelPatch): Promise<ChannelRow[]> {
    if (Object.keys(patch).length === 0) return where ? db.select().from(channels).where(where).orderBy(channels.id) : []
    return db.transaction(async (tx) => {
      // in id order, as SQLite answers (rowid order)
      const rows = byId(await tx.update(channels).set(patch).where(where).returning())
      await rewriteAbilities(tx, rows)
      return rows
    })
  }

  const byId = (rows: ChannelRow[]) => rows.sort((a, b) => a.id - b.id)
  const byIds = (ids: number[]) => inArray(channels.id, ids.filter(isInt4))

  return {
    all: async () => db.select().from(channels).orderBy(channels.id),
    findById: async (id) => first(await db.select().from(channels).where(eqInt(channels.id, id)).limit(1)),

    async list(filter: ChannelFilter, offset: number, limit: number) {
      const keyword = filter.keyword?.trim()
      const where = and(
        filter.type !== undefined ? eqInt(channels.type, filter.type) : undefined,
        filter.status !== undefined ? eqInt(channels.status, filter.status) : undefined,
        filter.tag !== undefined ? eq(channels.tag, filter.tag) : undefined,
        filter.group ? contains(sql`(',' || replace(${channels.group}, ' ', '') || ',')`, `,${filter.group.trim()},`) : undefined,
        filter.disabled ? ne(channels.status, ChannelStatus.enabled) : undefined,
        // strpos, not LIKE: model names may hold `_` and `%`
        filter.model?.trim() ? sql`strpos(',' || replace(${channels.models}, ' ', '') || ',', ${`,${filter.model.trim()},`}) > 0` : undefined,
        keyword
          ? or(
              contains(channels.name, keyword),
              contains(channels.tag, keyword),
              contains(channels.baseUrl, keyword),
              contains(channels.models, keyword),
              eq(channels.id, keywordId(keyword)),
            )
          : undefined,
      )
      const items = await db.select().from(channels).where(where).orderBy(desc(channels.id)).limit(limit).offset(offset)
      const [total] = await db.select({ n: count() }).from(channels).where(where)
      return { items, total: total!.n }
    },

    tags: async () => (await db.selectDistinct({ tag: channels.tag }).from(channels).where(ne(channels.tag, '')).orderBy(channels.tag)).map((r) => r.tag),

    async insert(rows: NewChannel[]) {
      if (rows.length === 0) return []
      return db.transaction(async (tx) => {
        // one at a time: RETURNING of a multi-row INSERT promises no order, and the rows come back in the order given
        const inserted: ChannelRow[] = []
        for (const row of rows) inserted.push((await tx.insert(channels).values(row).returning())[0]!)
        const given = maxGivenId(rows)
        if (given !== undefined) await advanceIdentity(tx, 'channels', given)
        await rewriteAbilities(tx, inserted)
        return inserted
      })
    },

    update: async (id, patch) =>
      Object.keys(patch).length ? (isInt4(id) ? (await updateWhere(eq(channels.id, id), patch))[0] : undefined) : first(await db.select().from(channels).where(eqInt(channels.id, id)).limit(1)),

    updateMany: async (ids, patch) => (ids.some(isInt4) ? updateWhere(byIds(ids), patch) : []),
    updateByTag: async (tag, patch) => updateWhere(eq(channels.tag, tag), patch),
    setStatus: async (ids, status) => (ids.some(isInt4) ? updateWhere(and(byIds(ids), ne(channels.status, status)), { status }) : []),
    setStatusByTag: async (tag, status) => updateWhere(and(eq(channels.tag, tag), ne(channels.status, status)), { status }),

    async delete(ids: number[]) {
      const valid = ids.filter(isInt4)
      if (valid.length === 0) return []
      return db.transaction(async (tx) => {
        await tx.delete(abilities).where(inArray(abilities.channelId, valid))
        return (await tx.delete(channels).where(inArray(channels.id, valid)).returning({ id: channels.id })).map((r) => r.id).sort((a, b) => a - b)
      })
    },

    async recordTest(id, responseTimeMs, testTime, testError) {
      await db.update(channels).set({ responseTime: responseTimeMs, testTime, testError }).where(eqInt(channels.id, id))
    },

    async recordBalance(id, balance, at) {
      await db.update(channels).set({ balance, balanceUpdatedTime: at }).where(eqInt(channels.id, id))
    },

    abilities: async (channelId) =>
      channelId === undefined
        ? db.select().from(abilities).orderBy(abilities.channelId)
        : db.select().from(abilities).where(eqInt(abilities.channelId, channelId)),
  }
}
