import { and, count, desc, eq, gt, ne, or, sql } from 'drizzle-orm'
import type { PgDb } from '../client'
import { logs, redemptions, users } from '../schema'
import { RedemptionStatus, type RedemptionRepo } from '../../repos/redemptions'
import type { RedemptionRow } from '../../repos/rows'
import { advanceIdentity, contains, eqInt, first, isInt4, keywordId, maxGivenId } from './sql'

/** Redemption codes on PostgreSQL, stored by hash. Redeeming is one conditional UPDATE: a code can only be spent once. */
export function createRedemptionRepo(db: PgDb, onUserChanged: (id: number) => void): RedemptionRepo {
  return {
    async insertMany(rows) {
      if (rows.length === 0) return []
      return db.transaction(async (tx) => {
        const inserted: RedemptionRow[] = []
        for (const row of rows) inserted.push((await tx.insert(redemptions).values(row).returning())[0]!)
        const given = maxGivenId(rows)
        if (given !== undefined) await advanceIdentity(tx, 'redemptions', given)
        return inserted
      })
    },

    findById: async (id) => first(await db.select().from(redemptions).where(eqInt(redemptions.id, id)).limit(1)),

    async list(offset, limit, keyword) {
      const k = keyword?.trim()
      const where = k ? or(contains(redemptions.name, k), eq(redemptions.id, keywordId(k)), eq(redemptions.keyHint, k)) : undefined
      const items = await db.select().from(redemptions).where(where).orderBy(desc(redemptions.id)).limit(limit).offset(offset)
      const [total] = await db.select({ n: count() }).from(redemptions).where(where)
      return { items, total: total!.n }
    },

    async update(id, patch) {
      if (Object.keys(patch).length === 0 || !isInt4(id)) return first(await db.select().from(redemptions).where(eqInt(redemptions.id, id)).limit(1))
      return first(await db.update(redemptions).set(patch).where(eq(redemptions.id, id)).returning())
    },

    delete: async (id) => (await db.delete(redemptions).where(eqInt(redemptions.id, id)).returning({ id: redemptions.id })).length > 0,

    async deleteInvalid(now) {
      const invalid = or(ne(redemptions.status, RedemptionStatus.enabled), and(gt(redemptions.expiredTime, 0), sql`${redemptions.expiredTime} <= ${now}`))
      return (await db.delete(redemptions).where(invalid).returning({ id: redemptions.id })).length
    },

    /** Mark the code used, credit its quota and write the top-up log in one transaction; of concurrent callers exactly one gets the row. */
    async redeem(keyHash, userId, now, logOf) {
      if (!isInt4(userId)) return undefined
      const row = await db.transaction(async (tx) => {
        if ((await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1)).length === 0) return undefined
        const [spent] = await tx
          .update(redemptions)
          .set({ status: RedemptionStatus.used, usedUserId: userId, redeemedTime: now })
          .where(
            and(
              eq(redemptions.keyHash, keyHash),
              eq(redemptions.status, RedemptionStatus.enabled),
              or(eq(redemptions.expiredTime, 0), gt(redemptions.expiredTime, now)),
            ),
          )
          .returning()
        if (!spent) return undefined
        await tx.update(users).set({ quota: sql`${users.quota} + ${spent.quota}` }).where(eq(users.id, userId))
        await tx.insert(logs).values(logOf(spent))
        return spent
      })
      // the cached row's balance is behind now: the next read loads it
      if (row) onUserChanged(userId)
      return row
    },
  }
}
