import { and, count, desc, eq, inArray } from 'drizzle-orm'
import type { PgDb } from '../client'
import { tokens } from '../schema'
import { createKeyCache } from '../../repos/key-cache'
import type { NewToken, TokenPatch, TokenRepo, TokenRow } from '../../repos/tokens'
import { advanceIdentity, contains, eqInt, first, isInt4 } from './sql'

/**
 * API keys on PostgreSQL. Relay auth reads them by key hash from memory (repos/key-cache.ts); this repo's writes
 * drop stale entries, `forget`/`forgetUser` drop them for writes made elsewhere.
 */
export function createTokenRepo(db: PgDb) {
  const cache = createKeyCache()
  const cachedById = cache.byId
  const stored = async (id: number) => (isInt4(id) ? first(await db.select().from(tokens).where(eq(tokens.id, id)).limit(1)) : undefined)

  async function loadByKeyHash(hash: string): Promise<TokenRow | undefined> {
    const cached = cache.get(hash)
    if (cached !== undefined) return cached ?? undefined
    const since = cache.generation
    const row = first(await db.select().from(tokens).where(eq(tokens.keyHash, hash)).limit(1))
    cache.remember(hash, row, since)
    return row
  }

  const repo = {
    cachedByKeyHash: cache.get,
    findByKeyHash: async (hash: string) => loadByKeyHash(hash),
    liveById: async (id: number) => cachedById(id) ?? stored(id),
    forget: cache.forgetId,
    forgetUser: cache.forgetUser,
    forgetAll: cache.forgetAll,

    findById: async (id: number) => stored(id),
    findOwned: async (id: number, userId: number) => first(await db.select().from(tokens).where(and(eqInt(tokens.id, id), eqInt(tokens.userId, userId))).limit(1)),

    async listOwned(userId: number, offset: number, limit: number, keyword?: string) {
      const where = and(eqInt(tokens.userId, userId), keyword ? contains(tokens.name, keyword) : undefined)
      const items = await db.select().from(tokens).where(where).orderBy(desc(tokens.id)).limit(limit).offset(offset)
      const [total] = await db.select({ n: count() }).from(tokens).where(where)
      return { items, total: total!.n }
    },

    async insert(token: NewToken) {
      const [row] = await db.insert(tokens).values(token).returning()
      if (token.id != null) await advanceIdentity(db, 'tokens', token.id)
      cache.forgetHash(row!.keyHash) // a remembered unknown key
      return row!
    },

    async update(id: number, userId: number, patch: TokenPatch) {
      const where = and(eqInt(tokens.id, id), eqInt(tokens.userId, userId))
      const row = Object.keys(patch).length
        ? first(await db.update(tokens).set(patch).where(where).returning())
        : first(await db.select().from(tokens).where(where).limit(1))
      cache.forgetId(id)
      return row
    },

    async deleteOwned(ids: number[], userId: number) {
      const valid = ids.filter(isInt4)
      const gone = valid.length ? await db.delete(tokens).where(and(inArray(tokens.id, valid), eqInt(tokens.userId, userId))).returning({ id: tokens.id }) : []
      for (const id of ids) cache.forgetId(id)
      return gone.length
    },

    async setStatusIf(id: number, from: number, to: number) {
      const moved = await db.update(tokens).set({ status: to }).where(and(eqInt(tokens.id, id), eqInt(tokens.status, from))).returning({ id: tokens.id })
      cache.forgetId(id)
      return moved.length > 0
    },
  } satisfies TokenRepo
  return { repo: repo as TokenRepo, cachedById }
}
