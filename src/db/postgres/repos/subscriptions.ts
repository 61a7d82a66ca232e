import { and, asc, count, desc, eq, gt, lte, sql } from 'drizzle-orm'
import { eqInt, first } from './sql'
import type { PgDb } from '../client'
import { billingPreferences, subscriptionPlans, userSubscriptions } from '../schema'
import type { StoredSubscriptionRepo } from '../../repos/subscriptions'

/**
 * Subscription plans on PostgreSQL. A take is one conditional UPDATE: the row lock orders concurrent takes from any
 * node, and each re-checks the period's quota after the one before it committed. A settlement locks the row.
 */
export function createSubscriptionRepo(db: PgDb): StoredSubscriptionRepo {
  const s = userSubscriptions
  // the period's use as the take sees it: zero once the clock is past the row's period
  const usedIn = (start: number) => sql`(CASE WHEN ${s.lastResetTime} >= ${start} THEN ${s.amountUsed} ELSE 0 END)`
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
    grant: async (row) => (await db.insert(s).values(row).returning())[0]!,
    findById: async (id) => first(await db.select().from(s).where(eqInt(s.id, id))),
    listOfUser: async (userId) => db.select().from(s).where(eqInt(s.userId, userId)).orderBy(desc(s.endTime), desc(s.id)),
    countOfPlan: async (userId, planId) => (await db.select({ n: count() }).from(s).where(and(eqInt(s.userId, userId), eqInt(s.planId, planId))))[0]!.n,
    setStatus: async (id, status, now) => (await db.update(s).set({ status, updatedAt: now }).where(eqInt(s.id, id)).returning({ id: s.id })).length > 0,

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

    async take(id, amount, now, period) {
      const [row] = await db
        .update(s)
        .set({
          amountUsed: sql`${usedIn(period.start)} + ${amount}`,
          lastResetTime: sql`greatest(${s.lastResetTime}, ${period.start}::bigint)`,
          nextResetTime: sql`CASE WHEN ${s.lastResetTime} >= ${period.start} THEN ${s.nextResetTime} ELSE ${period.next} END`,
        })
        .where(
          and(
            eqInt(s.id, id),
            eq(s.status, 'active'),
            lte(s.startTime, now),
            gt(s.endTime, now),
            sql`(${s.amountTotal} = 0 OR ${usedIn(period.start)} + ${amount} <= ${s.amountTotal})`,
          ),
        )
        .returning({ used: s.amountUsed, total: s.amountTotal, start: s.lastResetTime })
      if (row) return { ok: true, periodStart: row.start, amountUsed: row.used, amountTotal: row.total }
      const held = first(await db.select().from(s).where(eqInt(s.id, id)))
      const used = held && held.lastResetTime >= period.start ? held.amountUsed : 0
      return { ok: false, periodStart: Math.max(held?.lastResetTime ?? 0, period.start), amountUsed: used, amountTotal: held?.amountTotal ?? 0 }
    },

    async settle(id, periodStart, reserved, actual) {
      return db.transaction(async (tx) => {
        const held = first(await tx.select().from(s).where(eqInt(s.id, id)).for('update'))
        // the plan reset since the take: the old period's use is gone, nothing to give back or add there
        if (!held || held.lastResetTime !== periodStart) return Math.min(actual, reserved)
        const extra = actual > reserved ? Math.min(actual - reserved, held.amountTotal === 0 ? actual - reserved : Math.max(0, held.amountTotal - held.amountUsed)) : 0
        const charged = actual > reserved ? reserved + extra : actual
        const used = Math.max(0, held.amountUsed - reserved + charged)
        if (used !== held.amountUsed) await tx.update(s).set({ amountUsed: used }).where(eq(s.id, id))
        return charged
      })
    },
  }
}
