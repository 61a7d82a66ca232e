import { and, count, desc, eq, gte, like, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../client'
import { logs, topups, users } from '../schema'
import { TopUpStatus, type PaymentCheck, type TopUpFilter, type TopUpRepo } from '../../repos/topups'

/** Online top-up orders on SQLite. Crediting is one conditional UPDATE on the order: it is paid once. */
export function createTopUpRepo(db: Db): TopUpRepo {
  return {
    insert: async (row) => db.insert(topups).values(row).returning().get(),

    findByTradeNo: async (tradeNo) => db.select().from(topups).where(eq(topups.tradeNo, tradeNo)).get(),

    async list(filter, offset, limit) {
      const where = filterOf(filter)
      const items = db.select().from(topups).where(where).orderBy(desc(topups.id)).limit(limit).offset(offset).all()
      const total = db.select({ n: count() }).from(topups).where(where).get()!.n
      return { items, total }
    },

    async countPendingSince(userId, since) {
      const where = and(eq(topups.userId, userId), eq(topups.status, TopUpStatus.pending), gte(topups.createTime, since))
      return db.select({ n: count() }).from(topups).where(where).get()!.n
    },

    async complete(tradeNo, check, now, logOf) {
      return db.transaction((tx) => {
        const order = tx.select({ userId: topups.userId }).from(topups).where(eq(topups.tradeNo, tradeNo)).get()
        // an order whose owner is gone is not credited: it stays pending
        if (!order || !tx.select({ id: users.id }).from(users).where(eq(users.id, order.userId)).get()) return undefined
        const row = tx
          .update(topups)
          .set({ status: TopUpStatus.success, completeTime: now, ...(check.providerRef ? { providerRef: check.providerRef } : {}) })
          .where(and(eq(topups.tradeNo, tradeNo), eq(topups.status, TopUpStatus.pending), ...matches(check)))
          .returning()
          .get()
        if (!row) return undefined
        tx.update(users).set({ quota: sql`${users.quota} + ${row.quota}` }).where(eq(users.id, row.userId)).run()
        tx.insert(logs).values(logOf(row)).run()
        return row
      })
    },

    async settleUnpaid(tradeNo, status, now) {
      const row = db
        .update(topups)
        .set({ status, completeTime: now })
        .where(and(eq(topups.tradeNo, tradeNo), eq(topups.status, TopUpStatus.pending)))
        .returning({ id: topups.id })
        .get()
      return row !== undefined
    },

    async setProviderRef(tradeNo, ref) {
      db.update(topups).set({ providerRef: ref }).where(eq(topups.tradeNo, tradeNo)).run()
    },
  }
}

function filterOf(filter: TopUpFilter): SQL | undefined {
  const parts: SQL[] = []
  if (filter.userId !== undefined) parts.push(eq(topups.userId, filter.userId))
  if (filter.keyword?.trim()) parts.push(like(topups.tradeNo, `%${filter.keyword.trim()}%`))
  if (filter.status) parts.push(eq(topups.status, filter.status))
  if (filter.provider) parts.push(eq(topups.paymentProvider, filter.provider))
  return parts.length ? and(...parts) : undefined
}

function matches(check: PaymentCheck): SQL[] {
  const parts: SQL[] = []
  if (check.provider !== undefined) parts.push(eq(topups.paymentProvider, check.provider))
  if (check.moneyCents !== undefined) parts.push(eq(topups.moneyCents, check.moneyCents))
  if (check.currency !== undefined) parts.push(eq(topups.currency, check.currency))
  return parts
}
