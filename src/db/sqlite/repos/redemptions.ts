import { and, count, desc, eq, gt, like, ne, or, sql } from 'drizzle-orm'
import type { Db } from '../client'
import { logs, redemptions, users } from '../schema'
import { RedemptionStatus, type RedemptionRepo } from '../../repos/redemptions'

/** Redemption codes, stored by hash. Redeeming is one conditional UPDATE: a code can only be spent once. */
export function createRedemptionRepo(db: Db): RedemptionRepo {
  return {
    async insertMany(rows) {
      return db.transaction((tx) => rows.map((row) => tx.insert(redemptions).values(row).returning().get()))
    },

    findById: async (id) => db.select().from(redemptions).where(eq(redemptions.id, id)).get(),

    async list(offset, limit, keyword) {
      const k = keyword?.trim()
      const where = k ? or(like(redemptions.name, `%${k}%`), eq(redemptions.id, Number(k) || -1), eq(redemptions.keyHint, k)) : undefined
      const items = db.select().from(redemptions).where(where).orderBy(desc(redemptions.id)).limit(limit).offset(offset).all()
      const total = db.select({ n: count() }).from(redemptions).where(where).get()!.n
      return { items, total }
    },

    async update(id, patch) {
      if (Object.keys(patch).length === 0) return db.select().from(redemptions).where(eq(redemptions.id, id)).get()
      return db.update(redemptions).set(patch).where(eq(redemptions.id, id)).returning().get()
    },

    delete: async (id) => db.delete(redemptions).where(eq(redemptions.id, id)).returning({ id: redemptions.id }).all().length > 0,

    /** Delete every code that can no longer be redeemed: used, disabled or expired. */
    async deleteInvalid(now) {
      const invalid = or(ne(redemptions.status, RedemptionStatus.enabled), and(gt(redemptions.expiredTime, 0), sql`${redemptions.expiredTime} <= ${now}`))
      return db.delete(redemptions).where(invalid).returning({ id: redemptions.id }).all().length
    },

    /**
     * Spend the code with this hash for a user: mark it used, credit its quota and write the top-up log,
     * all in one transaction. Of concurrent callers exactly one gets the row; the others get undefined.
     */
    async redeem(keyHash, userId, now, logOf) {
      return db.transaction((tx) => {
        if (!tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).get()) return undefined
        const row = tx
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
          .get()
        if (!row) return undefined
        tx.update(users).set({ quota: sql`${users.quota} + ${row.quota}` }).where(eq(users.id, userId)).run()
        tx.insert(logs).values(logOf(row)).run()
        return row
      })
    },
  }
}
