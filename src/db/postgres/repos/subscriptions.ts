import { and, asc, count, desc, eq, gt, lte, sql } from 'drizzle-orm'
import { eqInt, first, isInt4 } from './sql'
import type { PgDb } from '../client'
import { billingPreferences, subscriptionPlans, userSubscriptions } from '../schema'
import type { EndedPlan, PlanPeriod, StoredSubscriptionRepo } from '../../repos/subscriptions'
import { beyondQuota, settleTake, usedIn as usedInRow, usedInSql } from '../../repos/plan-settlement'
import type { PlanHolds } from './plan-holds'
import { dueUpgrades, endRestoring, grantRaising } from './plan-groups'
import { planHolds } from '../schema/plan-holds'
import type { HoldLease } from './quota'

/**
 * Subscription plans on PostgreSQL. A take is one conditional UPDATE and the insert of its hold (plan-holds.ts), in one
 * statement: the row lock orders concurrent takes from any node, and each re-checks the period's quota after the one
 * before it committed. A settlement deletes the hold and locks the row.
 */
export function createSubscriptionRepo(db: PgDb, leases: { nodeId: string; lease: HoldLease; holds: PlanHolds }): StoredSubscriptionRepo {
  const s = userSubscriptions
  // the period's use as the take sees it (plan-settlement.ts `usedIn`): the row's in its period, the debt of the period before, else zero
  const usedIn = (p: PlanPeriod) => usedInSql({ used: s.amountUsed, total: s.amountTotal, last: s.lastResetTime }, p, 'greatest')
  const into = (p: PlanPeriod) => ({
    lastResetTime: sql`greatest(${s.lastResetTime}, ${p.start}::bigint)`,
    nextResetTime: sql`CASE WHEN ${s.lastResetTime} >= ${p.start} THEN ${s.nextResetTime} ELSE ${p.next} END`,
  })
  return {
    listPlans: async (enabledOnly) =>
      db
        .select()
        .from(subscriptionPlans)
        .where(enabledOnly ? eq(subscriptionPlans.enabled, true) : undefined)
        .orderBy(desc(subscriptionPlans.sortOrder), desc(subscriptionPlans.id)),
    findPlan: async (id) => first(await db.select().from(subscriptionPlans).where(eqInt(subscriptionPlans.id, id))),
    insertPlan: async (row) => (await db.insert(subscriptionPlans).values(row).returning())[0]!,
    updatePlan: async (id, patch) => first(await db.update(subscriptionPlans).set(patch).where(eqInt(subscriptionPlans.id, id)).returning()),
    grant: async (row) => db.transaction((tx) => grantRaising(tx, row, row.startTime)),
    findById: async (id) => first(await db.select().from(s).where(eqInt(s.id, id))),
    listOfUser: async (userId) => db.select().from(s).where(eqInt(s.userId, userId)).orderBy(desc(s.endTime), desc(s.id)),
    countOfPlan: async (userId, planId) => (await db.select({ n: count() }).from(s).where(and(eqInt(s.userId, userId), eqInt(s.planId, planId))))[0]!.n,
    cancel: async (id, now) => (isInt4(id) ? db.transaction((tx) => endRestoring(tx, id, 'cancelled', now)) : undefined),
    async expireUpgrades(now, limit) {
      const ended: EndedPlan[] = []
      for (const id of await dueUpgrades(db, now, limit)) {
        const end = await db.transaction((tx) => endRestoring(tx, id, 'expired', now))
        if (end) ended.push(end)
      }
      return ended
    },

    async spendable(userId, now) {
      return db
        .select({
          id: s.id,
          planId: s.planId,
          startTime: s.startTime,
          endTime: s.endTime,
          models: subscriptionPlans.models,
          groups: subscriptionPlans.groups,
          quotaResetPeriod: subscriptionPlans.quotaResetPeriod,
          quotaResetCustomSeconds: subscriptionPlans.quotaResetCustomSeconds,
        })
        .from(s)
        .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, s.planId))
        .where(and(eqInt(s.userId, userId), eq(s.status, 'active'), lte(s.startTime, now), gt(s.endTime, now)))
        .orderBy(asc(s.endTime), asc(s.id))
    },

    preference: async (userId) => first(await db.select().from(billingPreferences).where(eqInt(billingPreferences.userId, userId)))?.billingPreference,
    async setPreference(userId, preference) {
      await db.insert(billingPreferences).values({ userId, billingPreference: preference }).onConflictDoUpdate({ target: billingPreferences.userId, set: { billingPreference: preference } })
    },

    async take(id, amount, now, period, token) {
      if (!isInt4(id)) return { ok: false, periodStart: period.start, amountUsed: 0, amountTotal: 0 }
      const used = usedIn(period)
      // the UPDATE and its hold's INSERT in one statement: one round trip, and no take without its hold
      const rows = (await db.execute(sql`WITH taken AS (
          UPDATE ${s} SET amount_used = ${used} + ${amount}::int8,
            next_reset_time = CASE WHEN last_reset_time >= ${period.start}::int8 THEN next_reset_time ELSE ${period.next}::int8 END,
            last_reset_time = greatest(last_reset_time, ${period.start}::int8)
          WHERE id = ${id}::int4 AND status = 'active' AND start_time <= ${now}::int8 AND end_time > ${now}::int8
            AND (amount_total = 0 OR ${used} + ${amount}::int8 <= amount_total)
          RETURNING amount_used, amount_total, last_reset_time
        ), hold AS (
          INSERT INTO ${planHolds} (subscription_id, period_start, amount, token_id, token_amount, node_id, expires_at)
          SELECT ${id}::int4, last_reset_time, ${amount}::int8, ${token?.id ?? 0}::int4, ${token?.held ?? 0}::int8, ${leases.nodeId}, now() + make_interval(secs => ${leases.lease.ttlSeconds}::float8)
          FROM taken RETURNING id
        )
        SELECT taken.amount_used, taken.amount_total, taken.last_reset_time, hold.id AS hold FROM taken, hold`)) as unknown as { amount_used: string; amount_total: string; last_reset_time: string; hold: string }[]
      const row = rows[0]
      if (row) {
        const hold = Number(row.hold)
        leases.holds.taken(hold)
        return { ok: true, periodStart: Number(row.last_reset_time), amountUsed: Number(row.amount_used), amountTotal: Number(row.amount_total), hold }
      }
      const held = first(await db.select().from(s).where(eqInt(s.id, id)))
      return { ok: false, periodStart: Math.max(held?.lastResetTime ?? 0, period.start), amountUsed: held ? usedInRow(held, period) : 0, amountTotal: held?.amountTotal ?? 0 }
    },

    async settle(id, periodStart, reserved, actual, hold) {
      if (hold !== undefined) leases.holds.ended(hold)
      return db.transaction(async (tx) => {
        // the hold first (the sweep's lock order is the hold, then the plan): gone means a sweep gave the take back
        const swept = hold !== undefined && (await tx.delete(planHolds).where(eq(planHolds.id, hold)).returning({ id: planHolds.id })).length === 0
        const held = first(await tx.select().from(s).where(eqInt(s.id, id)).for('update'))
        const settled = settleTake(held, periodStart, swept ? 0 : reserved, actual)
        if (held && settled.used !== held.amountUsed) await tx.update(s).set({ amountUsed: settled.used }).where(eq(s.id, id))
        return { charged: settled.charged, swept }
      })
    },

    async overdraw(id, amount, period) {
      const row = first(await db.update(s).set({ amountUsed: sql`${usedIn(period)} + ${amount}::bigint`, ...into(period) }).where(eqInt(s.id, id)).returning({ used: s.amountUsed, total: s.amountTotal }))
      return row ? beyondQuota(amount, row.used, row.total) : amount
    },
  }
}
