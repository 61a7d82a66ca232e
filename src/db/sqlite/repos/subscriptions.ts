import { and, asc, count, desc, eq, gt, lte, sql } from 'drizzle-orm'
import type { Db } from '../client'
import { billingPreferences, subscriptionPlans, userSubscriptions } from '../schema'
import type { StoredSubscriptionRepo } from '../../repos/subscriptions'

/** Subscription plans on SQLite: one connection, so each take and settlement is one statement or one synchronous transaction. */
export function createSubscriptionRepo(db: Db): StoredSubscriptionRepo {
  const s = userSubscriptions
  // the period's use as the take sees it: zero once the clock is past the row's period
  const usedIn = (start: number) => sql`(CASE WHEN ${s.lastResetTime} >= ${start} THEN ${s.amountUsed} ELSE 0 END)`
  return {
    listPlans: async (enabledOnly) =>
      db
        .select()
        .from(subscriptionPlans)
        .where(enabledOnly ? eq(subscriptionPlans.enabled, true) : undefined)
        .orderBy(desc(subscriptionPlans.sortOrder), desc(subscriptionPlans.id))
        .all(),
    findPlan: async (id) => db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id)).get(),
    insertPlan: async (row) => db.insert(subscriptionPlans).values(row).returning().get(),
    updatePlan: async (id, patch) => db.update(subscriptionPlans).set(patch).where(eq(subscriptionPlans.id, id)).returning().get(),
    grant: async (row) => db.insert(s).values(row).returning().get(),
    findById: async (id) => db.select().from(s).where(eq(s.id, id)).get(),
    listOfUser: async (userId) => db.select().from(s).where(eq(s.userId, userId)).orderBy(desc(s.endTime), desc(s.id)).all(),
    countOfPlan: async (userId, planId) => db.select({ n: count() }).from(s).where(and(eq(s.userId, userId), eq(s.planId, planId))).get()!.n,
    setStatus: async (id, status, now) => db.update(s).set({ status, updatedAt: now }).where(eq(s.id, id)).returning({ id: s.id }).get() !== undefined,

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
        .where(and(eq(s.userId, userId), eq(s.status, 'active'), lte(s.startTime, now), gt(s.endTime, now)))
        .orderBy(asc(s.endTime), asc(s.id))
        .all()
    },

    preference: async (userId) => db.select().from(billingPreferences).where(eq(billingPreferences.userId, userId)).get()?.billingPreference,
    async setPreference(userId, preference) {
      db.insert(billingPreferences).values({ userId, billingPreference: preference }).onConflictDoUpdate({ target: billingPreferences.userId, set: { billingPreference: preference } }).run()
    },

    async take(id, amount, now, period) {
      const row = db
        .update(s)
        .set({
          amountUsed: sql`${usedIn(period.start)} + ${amount}`,
          lastResetTime: sql`max(${s.lastResetTime}, ${period.start})`,
          nextResetTime: sql`CASE WHEN ${s.lastResetTime} >= ${period.start} THEN ${s.nextResetTime} ELSE ${period.next} END`,
        })
        .where(
          and(
            eq(s.id, id),
            eq(s.status, 'active'),
            lte(s.startTime, now),
            gt(s.endTime, now),
            sql`(${s.amountTotal} = 0 OR ${usedIn(period.start)} + ${amount} <= ${s.amountTotal})`,
          ),
        )
        .returning({ used: s.amountUsed, total: s.amountTotal, start: s.lastResetTime })
        .get()
      if (row) return { ok: true, periodStart: row.start, amountUsed: row.used, amountTotal: row.total }
      const held = db.select().from(s).where(eq(s.id, id)).get()
      const used = held && held.lastResetTime >= period.start ? held.amountUsed : 0
      return { ok: false, periodStart: Math.max(held?.lastResetTime ?? 0, period.start), amountUsed: used, amountTotal: held?.amountTotal ?? 0 }
    },

    async settle(id, periodStart, reserved, actual) {
      return db.transaction((tx) => {
        const held = tx.select().from(s).where(eq(s.id, id)).get()
        // the plan reset since the take: the old period's use is gone, nothing to give back or add there
        if (!held || held.lastResetTime !== periodStart) return Math.min(actual, reserved)
        const extra = actual > reserved ? Math.min(actual - reserved, held.amountTotal === 0 ? actual - reserved : Math.max(0, held.amountTotal - held.amountUsed)) : 0
        const charged = actual > reserved ? reserved + extra : actual
        const used = Math.max(0, held.amountUsed - reserved + charged)
        if (used !== held.amountUsed) tx.update(s).set({ amountUsed: used }).where(eq(s.id, id)).run()
        return charged
      })
    },
  }
}
