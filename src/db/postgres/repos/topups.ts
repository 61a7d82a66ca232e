import { and, count, desc, eq, gte, lt, lte, or, sql, type SQL } from 'drizzle-orm'
import type { PgDb } from '../client'
import { logs, topups, users } from '../schema'
import { grantRaising } from './plan-groups'
import { TopUpStatus, type PaymentCheck, type TopUpFilter, type TopUpRepo } from '../../repos/topups'
import { contains, eqInt, first } from './sql'

/**
 * Online top-up orders on PostgreSQL. Crediting is one conditional UPDATE on the order inside the transaction
 * that credits the owner: two nodes given the same webhook at once both try, and the row lock lets exactly one
 * see the order pending (the other's UPDATE, re-checked after the first commits, matches nothing).
 */
export function createTopUpRepo(db: PgDb, onUserChanged: (id: number) => void): TopUpRepo {
  return {
    insert: async (row) => (await db.insert(topups).values(row).returning())[0]!,

    findByTradeNo: async (tradeNo) => first(await db.select().from(topups).where(eq(topups.tradeNo, tradeNo)).limit(1)),

    async list(filter, offset, limit) {
      const where = filterOf(filter)
      const items = await db.select().from(topups).where(where).orderBy(desc(topups.id)).limit(limit).offset(offset)
      const [total] = await db.select({ n: count() }).from(topups).where(where)
      return { items, total: total!.n }
    },

    async countPendingSince(userId, since) {
      const [row] = await db
        .select({ n: count() })
        .from(topups)
        .where(and(eqInt(topups.userId, userId), eq(topups.status, TopUpStatus.pending), gte(topups.createTime, since)))
      return row!.n
    },

    async complete(tradeNo, check, now, logOf, grantOf) {
      const row = await db.transaction(async (tx) => {
        const [paid] = await tx
          .update(topups)
          .set({ status: TopUpStatus.success, completeTime: now, ...(check.providerRef ? { providerRef: check.providerRef } : {}) })
          .where(and(eq(topups.tradeNo, tradeNo), eq(topups.status, TopUpStatus.pending), ...matches(check)))
          .returning()
        if (!paid) return undefined
        const credited = await tx.update(users).set({ quota: sql`${users.quota} + ${paid.quota}` }).where(eq(users.id, paid.userId)).returning({ id: users.id })
        // an order whose owner is gone is not credited: the transaction is undone and it stays pending
        if (credited.length === 0) throw new OwnerGone()
        const grant = paid.planId > 0 ? grantOf?.(paid) : undefined
        if (grant) await grantRaising(tx, grant, now)
        await tx.insert(logs).values(logOf(paid))
        return paid
      }).catch((error: unknown) => {
        if (error instanceof OwnerGone) return undefined
        throw error
      })
      // the cached row's balance is behind now: the next read loads it
      if (row) onUserChanged(row.userId)
      return row
    },

    async settleUnpaid(tradeNo, status, now) {
      const rows = await db
        .update(topups)
        .set({ status, completeTime: now })
        .where(and(eq(topups.tradeNo, tradeNo), eq(topups.status, TopUpStatus.pending)))
        .returning({ id: topups.id })
      return rows.length > 0
    },

    async setProviderRef(tradeNo, ref) {
      await db.update(topups).set({ providerRef: ref }).where(eq(topups.tradeNo, tradeNo))
    },
  }
}

class OwnerGone extends Error {}

function filterOf(filter: TopUpFilter): SQL | undefined {
  const parts: SQL[] = []
  if (filter.userId !== undefined) parts.push(eqInt(topups.userId, filter.userId))
  if (filter.keyword?.trim()) parts.push(contains(topups.tradeNo, filter.keyword.trim()))
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
