import { and, count, desc, eq, inArray, like } from 'drizzle-orm'
import type { Db } from '../client'
import { tokens } from '../schema'
import { createKeyCache } from '../../repos/key-cache'
import type { NewToken, TokenPatch, TokenRepo, TokenRow } from '../../repos/tokens'
import { syncedBefore } from './synced'

/**
 * Access tokens. Relay auth reads them by key hash from memory (repos/key-cache.ts); every write here drops stale entries.
 * `sync` writes the quota ledger's pending deltas; it runs before every database read.
 */
export function createTokenRepo(db: Db, sync: () => void = () => {}) {
  const cache = createKeyCache()

  /** The cached row (the quota ledger changes it in place), or else the stored one: the ledger's synchronous read. */
  function live(id: number): TokenRow | undefined {
    const cached = cache.byId(id)
    if (cached) return cached
    sync()
    return db.select().from(tokens).where(eq(tokens.id, id)).get()
  }

  function loadByKeyHash(hash: string): TokenRow | undefined {
    const cached = cache.get(hash)
    if (cached !== undefined) return cached ?? undefined
    sync()
    const row = db.select().from(tokens).where(eq(tokens.keyHash, hash)).get()
    cache.remember(hash, row)
    return row
  }

  const repo = {
    cachedByKeyHash: cache.get,
    findByKeyHash: async (hash: string) => loadByKeyHash(hash),
    liveById: async (id: number) => live(id),
    forget: cache.forgetId,
    forgetUser: cache.forgetUser,
    forgetAll: cache.forgetAll,

    findById: async (id: number) => db.select().from(tokens).where(eq(tokens.id, id)).get(),
    findOwned: async (id: number, userId: number) => db.select().from(tokens).where(and(eq(tokens.id, id), eq(tokens.userId, userId))).get(),

    async listOwned(userId: number, offset: number, limit: number, keyword?: string) {
      const where = and(eq(tokens.userId, userId), keyword ? like(tokens.name, `%${keyword}%`) : undefined)
      const items = db.select().from(tokens).where(where).orderBy(desc(tokens.id)).limit(limit).offset(offset).all()
      const total = db.select({ n: count() }).from(tokens).where(where).get()!.n
      return { items, total }
    },

    async insert(token: NewToken) {
      const row = db.insert(tokens).values(token).returning().get()
      cache.forgetHash(row.keyHash) // a remembered unknown key
      return row
    },

    async update(id: number, userId: number, patch: TokenPatch) {
      const where = and(eq(tokens.id, id), eq(tokens.userId, userId))
      const row = Object.keys(patch).length ? db.update(tokens).set(patch).where(where).returning().get() : db.select().from(tokens).where(where).get()
      cache.forgetId(id)
      return row
    },

    async deleteOwned(ids: number[], userId: number) {
      const result = db.delete(tokens).where(and(inArray(tokens.id, ids), eq(tokens.userId, userId))).returning({ id: tokens.id }).all()
      for (const id of ids) cache.forgetId(id)
      return result.length
    },

    async setStatusIf(id: number, from: number, to: number) {
      const result = db.update(tokens).set({ status: to }).where(and(eq(tokens.id, id), eq(tokens.status, from))).returning({ id: tokens.id }).all()
      cache.forgetId(id)
      return result.length > 0
    },
  } satisfies TokenRepo
  return { repo: syncedBefore<TokenRepo>(repo, sync, ['cachedByKeyHash', 'findByKeyHash', 'liveById', 'forget', 'forgetUser', 'forgetAll']), live }
}
