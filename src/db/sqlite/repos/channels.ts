import { and, count, desc, eq, inArray, like, ne, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../client'
import { abilities, channels } from '../schema'
import type { Page } from './users'

export type ChannelRow = typeof channels.$inferSelect
export type NewChannel = typeof channels.$inferInsert
export type ChannelPatch = Partial<Omit<NewChannel, 'id' | 'createdTime'>>
export type AbilityRow = typeof abilities.$inferSelect

export const ChannelStatus = { enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const

export interface ChannelFilter {
  type?: number
  status?: number
  tag?: string
  group?: string
  /** channels whose model list names exactly this model */
  model?: string
  /** status 2 or 3 (manually or automatically disabled) */
  disabled?: boolean
  keyword?: string
}

/** `a, b,,a` → `['a', 'b']`: trimmed, non-empty, first occurrence kept. */
export function splitList(text: string): string[] {
  return [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))]
}

/** The routing rows one channel implies: every (group, model) pair, enabled only when the channel is. */
export function abilitiesOf(row: ChannelRow): AbilityRow[] {
  const rows: AbilityRow[] = []
  for (const group of splitList(row.group)) {
    for (const model of splitList(row.models)) {
      rows.push({
        group,
        model,
        channelId: row.id,
        enabled: row.status === ChannelStatus.enabled,
        priority: row.priority,
        weight: row.weight,
        tag: row.tag,
      })
    }
  }
  return rows
}

/**
 * Channels and their abilities. Every write rewrites the touched channels' abilities in the same
 * transaction, so the routing index in the database can never drift from the channels.
 */
export function createChannelRepo(db: Db) {
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
    all: (): ChannelRow[] => db.select().from(channels).all(),
    findById: (id: number) => db.select().from(channels).where(eq(channels.id, id)).get(),
    findByIds: (ids: number[]) => (ids.length ? db.select().from(channels).where(inArray(channels.id, ids)).all() : []),
    findByTag: (tag: string) => db.select().from(channels).where(eq(channels.tag, tag)).all(),

    list(filter: ChannelFilter, offset: number, limit: number): Page<ChannelRow> {
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
    tags: (): string[] =>
      db.selectDistinct({ tag: channels.tag }).from(channels).where(ne(channels.tag, '')).orderBy(channels.tag).all().map((r) => r.tag),

    insert(rows: NewChannel[]): ChannelRow[] {
      if (rows.length === 0) return []
      return db.transaction((tx) => {
        const inserted = rows.map((row) => tx.insert(channels).values(row).returning().get())
        rewriteAbilities(tx, inserted)
        return inserted
      })
    },

    update: (id: number, patch: ChannelPatch): ChannelRow | undefined =>
      Object.keys(patch).length ? updateWhere(eq(channels.id, id), patch)[0] : db.select().from(channels).where(eq(channels.id, id)).get(),

    /** Set fields on several channels; returns the rows written. */
    updateMany: (ids: number[], patch: ChannelPatch): ChannelRow[] => (ids.length ? updateWhere(inArray(channels.id, ids), patch) : []),

    /** Set fields on every channel with the tag; returns the rows written. */
    updateByTag: (tag: string, patch: ChannelPatch): ChannelRow[] => updateWhere(eq(channels.tag, tag), patch),

    /** Set the status of the given channels; returns only the rows whose status actually changed. */
    setStatus: (ids: number[], status: number): ChannelRow[] =>
      ids.length ? updateWhere(and(inArray(channels.id, ids), ne(channels.status, status)), { status }) : [],

    setStatusByTag: (tag: string, status: number): ChannelRow[] =>
      updateWhere(and(eq(channels.tag, tag), ne(channels.status, status)), { status }),

    /** Deletes channels (abilities go with them); returns the ids removed. */
    delete(ids: number[]): number[] {
      if (ids.length === 0) return []
      return db.transaction((tx) => {
        tx.delete(abilities).where(inArray(abilities.channelId, ids)).run()
        return tx.delete(channels).where(inArray(channels.id, ids)).returning({ id: channels.id }).all().map((r) => r.id)
      })
    },

    /** Test bookkeeping: no routing field changes, so abilities stay as they are. */
    recordTest(id: number, responseTimeMs: number, testTime: number): void {
      db.update(channels).set({ responseTime: responseTimeMs, testTime }).where(eq(channels.id, id)).run()
    },

    addUsedQuota(id: number, amount: number): void {
      db.update(channels).set({ usedQuota: sql`${channels.usedQuota} + ${amount}` }).where(eq(channels.id, id)).run()
    },

    abilities: (channelId?: number): AbilityRow[] =>
      channelId === undefined
        ? db.select().from(abilities).all()
        : db.select().from(abilities).where(eq(abilities.channelId, channelId)).all(),
  }
}

export type ChannelRepo = ReturnType<typeof createChannelRepo>
