import { and, count, desc, eq, inArray, like, ne, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../client'
import { abilities, channels } from '../schema'
import { abilitiesOf, ChannelStatus, type ChannelFilter, type ChannelPatch, type ChannelRepo, type ChannelRow, type NewChannel } from '../../repos/channels'

/**
 * Channels and their abilities. Every write rewrites the touched channels' abilities in the same
 * transaction, so the routing index in the database can never drift from the channels.
 */
export function createChannelRepo(db: Db): ChannelRepo {
  type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

  function rewriteAbilities(tx: Tx, rows: ChannelRow[]): void {
    if (rows.length === 0) return
    tx.delete(abilities).where(inArray(abilities.channelId, rows.map((r) => r.id))).run()
    const fresh = rows.flatMap(abilitiesOf)
    for (let i = 0; i < fresh.length; i += 500) tx.insert(abilities).values(fresh.slice(i, i + 500)).run()
  }

  /** Apply `patch` to the channels matching `where` and rewrite their abilities, in one transaction. */
  function updateWhere(where: SQL | undefined, patch: ChannelPatch): ChannelRow[] {
    if (Object.keys(patch).length === 0) return where ? db.select().from(channels).where(where).all() : []
    return db.transaction((tx) => {
      const rows = tx.update(channels).set(patch).where(where).returning().all()
      rewriteAbilities(tx, rows)
      return rows
    })
  }

  return {
    all: async () => db.select().from(channels).all(),
    findById: async (id) => db.select().from(channels).where(eq(channels.id, id)).get(),

    async list(filter: ChannelFilter, offset: number, limit: number) {
      const keyword = filter.keyword?.trim()
      const where = and(
        filter.type !== undefined ? eq(channels.type, filter.type) : undefined,
        filter.status !== undefined ? eq(channels.status, filter.status) : undefined,
        filter.tag !== undefined ? eq(channels.tag, filter.tag) : undefined,
        filter.group ? sql`(',' || replace(${channels.group}, ' ', '') || ',') LIKE ${`%,${filter.group.trim()},%`}` : undefined,
        filter.disabled ? ne(channels.status, ChannelStatus.enabled) : undefined,
        // instr, not LIKE: model names may hold `_` and `%`
        filter.model?.trim() ? sql`instr(',' || replace(${channels.models}, ' ', '') || ',', ${`,${filter.model.trim()},`}) > 0` : undefined,
        keyword
          ? or(
              like(channels.name, `%${keyword}%`),
              like(channels.tag, `%${keyword}%`),
              like(channels.baseUrl, `%${keyword}%`),
              like(channels.models, `%${keyword}%`),
              eq(channels.id, Number(keyword) || -1),
            )
          : undefined,
      )
      const items = db.select().from(channels).where(where).orderBy(desc(channels.id)).limit(limit).offset(offset).all()
      const total = db.select({ n: count() }).from(channels).where(where).get()!.n
      return { items, total }
    },

    /** The distinct non-empty tags, sorted (the console's tag filter). */
    tags: async () =>
      db.selectDistinct({ tag: channels.tag }).from(channels).where(ne(channels.tag, '')).orderBy(channels.tag).all().map((r) => r.tag),

    async insert(rows: NewChannel[]) {
      if (rows.length === 0) return []
      return db.transaction((tx) => {
        const inserted = rows.map((row) => tx.insert(channels).values(row).returning().get())
        rewriteAbilities(tx, inserted)
        return inserted
      })
    },

    update: async (id, patch) =>
      Object.keys(patch).length ? updateWhere(eq(channels.id, id), patch)[0] : db.select().from(channels).where(eq(channels.id, id)).get(),

    /** Set fields on several channels; returns the rows written. */
    updateMany: async (ids, patch) => (ids.length ? updateWhere(inArray(channels.id, ids), patch) : []),

    /** Set fields on every channel with the tag; returns the rows written. */
    updateByTag: async (tag, patch) => updateWhere(eq(channels.tag, tag), patch),

    /** Set the status of the given channels; returns only the rows whose status actually changed. */
    setStatus: async (ids, status) =>
      ids.length ? updateWhere(and(inArray(channels.id, ids), ne(channels.status, status)), { status }) : [],

    setStatusByTag: async (tag, status) =>
      updateWhere(and(eq(channels.tag, tag), ne(channels.status, status)), { status }),

    /** Deletes channels (abilities go with them); returns the ids removed. */
    async delete(ids: number[]) {
      if (ids.length === 0) return []
      return db.transaction((tx) => {
        tx.delete(abilities).where(inArray(abilities.channelId, ids)).run()
        return tx.delete(channels).where(inArray(channels.id, ids)).returning({ id: channels.id }).all().map((r) => r.id)
      })
    },

    /** Test bookkeeping: no routing field changes, so abilities stay as they are. */
    async recordTest(id, responseTimeMs, testTime, testError) {
      db.update(channels).set({ responseTime: responseTimeMs, testTime, testError }).where(eq(channels.id, id)).run()
    },

    async recordBalance(id, balance, at) {
      db.update(channels).set({ balance, balanceUpdatedTime: at }).where(eq(channels.id, id)).run()
    },

    abilities: async (channelId) =>
      channelId === undefined
        ? db.select().from(abilities).all()
        : db.select().from(abilities).where(eq(abilities.channelId, channelId)).all(),
  }
}
