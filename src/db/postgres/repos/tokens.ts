import { and, count, desc, eq, inArray } from 'drizzle-orm'
import type { PgDb } from '../client'
import { tokens } from '../schema'
import type { NewToken, TokenPatch, TokenRepo, TokenRow } from '../../repos/tokens'
import { advanceIdentity, contains, eqInt, first, isInt4 } from './sql'

/** Unknown keys are remembered too, but only so many. */
const MAX_NEGATIVE = 10_000

/**
 * API keys on PostgreSQL. Relay auth reads them by key hash from memory (unknown hashes too, bounded); this
 * repo's writes drop stale entries, `forget`/`forgetUser` drop them for writes made elsewhere. A load that
 * raced a write or a forget is not cached: it may have read the row before that write.
 */
export function createTokenRepo(db: PgDb) {
  const byHash = new Map<string, TokenRow | null>()
  // id → key hash of the cached rows, so dropping one token never walks the whole cache
  const hashById = new Map<number, string>()
  let writes = 0

  function forgetId(id: number): void {
    writes++
    const hash = hashById.get(id)
    if (hash === undefined) return
    hashById.delete(id)
    byHash.delete(hash)
  }

  function forgetUser(userId: number): void {
    writes++
    for (const [hash, row] of byHash) {
      if (row?.userId !== userId) continue
      byHash.delete(hash)
      hashById.delete(row.id)
    }
  }

  const cachedById = (id: number): TokenRow | undefined => {
    const hash = hashById.get(id)
    return (hash === undefined ? undefined : byHash.get(hash)) ?? undefined
  }
  const stored = async (id: number) => (isInt4(id) ? first(await db.select().from(tokens).where(eq(tokens.id, id)).limit(1)) : undefined)

  async function loadByKeyHash(hash: string): Promise<TokenRow | undefined> {
    const cached = byHash.get(hash)
    if (cached !== undefined) return cached ?? undefined
    const before = writes
    const row = first(await db.select().from(tokens).where(eq(tokens.keyHash, hash)).limit(1))
    if (writes !== before) return row
    if (row) {
      const old = hashById.get(row.id)
      if (old !== undefined) byHash.delete(old)
      hashById.set(row.id, hash)
    }
    if (row || byHash.size < MAX_NEGATIVE) byHash.set(hash, row ?? null)
    return row
  }

  const repo = {
    cachedByKeyHash: (hash: string) => byHash.get(hash),
    findByKeyHash: async (hash: string) => loadByKeyHash(hash),
    liveById: async (id: number) => cachedById(id) ?? stored(id),
    forget: forgetId,
    forgetUser,
    forgetAll() {
      writes++
      byHash.clear()
      hashById.clear()
    },

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
      writes++
      byHash.delete(row!.keyHash) // a remembered unknown key
      return row!
    },

    async update(id: number, userId: number, patch: TokenPatch) {
      const where = and(eqInt(tokens.id, id), eqInt(tokens.userId, userId))
      const row = Object.keys(patch).length
        ? first(await db.update(tokens).set(patch).where(where).returning())
        : first(await db.select().from(tokens).where(where).limit(1))
      forgetId(id)
      return row
    },

    async deleteOwned(ids: number[], userId: number) {
      const valid = ids.filter(isInt4)
      const gone = valid.length ? await db.delete(tokens).where(and(inArray(tokens.id, valid), eqInt(tokens.userId, userId))).returning({ id: tokens.id }) : []
      for (const id of ids) forgetId(id)
      return gone.length
    },

    async setStatusIf(id: number, from: number, to: number) {
      const moved = await db.update(tokens).set({ status: to }).where(and(eqInt(tokens.id, id), eqInt(tokens.status, from))).returning({ id: tokens.id })
      forgetId(id)
      return moved.length > 0
    },
  } satisfies TokenRepo
  return { repo: repo as TokenRepo, cachedById }
}
