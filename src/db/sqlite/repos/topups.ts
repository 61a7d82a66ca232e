import { and, count, desc, eq, gte, lt, lte, or, like, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../client'
import { logs, topups, users } from '../schema'
import { grantRaising } from './plan-groups'
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

    async complete(tradeNo, check, now, logOf, grantOf) {
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
        const grant = row.planId > 0 ? grantOf?.(row) : undefined
        if (grant) grantRaising(tx, grant, now)
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
  if (filter.status) parts.push(statusIs(filter.status, filter.pendingExpiresBefore))
  if (filter.provider) parts.push(eq(topups.paymentProvider, filter.provider))
  if (filter.createdFrom !== undefined) parts.push(gte(topups.createTime, filter.createdFrom))
  if (filter.createdTo !== undefined) parts.push(lte(topups.createTime, filter.createdTo))
  return parts.length ? and(...parts) : undefined
}

/** A pending order past its time is listed as expired, not pending (the state the API shows). */
function statusIs(status: string, pendingExpiresBefore: number | undefined): SQL {
  if (pendingExpiresBefore === undefined) return eq(topups.status, status)
  const pendingPast = and(eq(topups.status, TopUpStatus.pending), lt(topups.createTime, pendingExpiresBefore))!
  if (status === TopUpStatus.pending) return and(eq(topups.status, status), gte(topups.createTime, pendingExpiresBefore))!
  if (status === TopUpStatus.expired) return or(eq(topups.status, status), pendingPast)!
  return eq(topups.status, status)
}

function matches(check: PaymentCheck): SQL[] {
  const parts: SQL[] = []
  if (check.provider !== undefined) parts.push(eq(topups.paymentProvider, check.provider))
  if (check.moneyCents !== undefined) parts.push(eq(topups.moneyCents, check.moneyCents))
  if (check.currency !== undefined) parts.push(eq(topups.currency, check.currency))
  return parts
}
