import { and, asc, count, desc, eq, gt, lte, sql } from 'drizzle-orm'
import type { Db } from '../client'
import { billingPreferences, subscriptionPlans, userSubscriptions } from '../schema'
import type { EndedPlan, PlanPeriod, StoredSubscriptionRepo } from '../../repos/subscriptions'
import { dueUpgrades, endRestoring, grantRaising } from './plan-groups'
import { beyondQuota, settleTake, usedIn as usedInRow, usedInSql } from '../../repos/plan-settlement'

/** Subscription plans on SQLite: one connection, so each take and settlement is one statement or one synchronous transaction. */
export function createSubscriptionRepo(db: Db): StoredSubscriptionRepo {
  const s = userSubscriptions
  // the period's use as the take sees it (period.ts `usedIn`): the row's in its period, the debt of the period before, else zero
  const usedIn = (p: PlanPeriod) => usedInSql({ used: s.amountUsed, total: s.amountTotal, last: s.lastResetTime }, p, 'max')
  // the row moved into `p` (a no-op when it is already there)
  const into = (p: PlanPeriod) => ({
    lastResetTime: sql`max(${s.lastResetTime}, ${p.start})`,
    nextResetTime: sql`CASE WHEN ${s.lastResetTime} >= ${p.start} THEN ${s.nextResetTime} ELSE ${p.next} END`,
  })
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
    grant: async (row) => db.transaction((tx) => grantRaising(tx, row, row.startTime)),
    findById: async (id) => db.select().from(s).where(eq(s.id, id)).get(),
    listOfUser: async (userId) => db.select().from(s).where(eq(s.userId, userId)).orderBy(desc(s.endTime), desc(s.id)).all(),
    countOfPlan: async (userId, planId) => db.select({ n: count() }).from(s).where(and(eq(s.userId, userId), eq(s.planId, planId))).get()!.n,
    cancel: async (id, now) => db.transaction((tx) => endRestoring(tx, id, 'cancelled', now)),
    async expireUpgrades(now, limit) {
      const ended: EndedPlan[] = []
      for (const id of dueUpgrades(db, now, limit)) {
        const end = db.transaction((tx) => endRestoring(tx, id, 'expired', now))
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
          amountUsed: sql`${usedIn(period)} + ${amount}`,
          ...into(period),
        })
        .where(
          and(
            eq(s.id, id),
            eq(s.status, 'active'),
            lte(s.startTime, now),
            gt(s.endTime, now),
            sql`(${s.amountTotal} = 0 OR ${usedIn(period)} + ${amount} <= ${s.amountTotal})`,
          ),
        )
        .returning({ used: s.amountUsed, total: s.amountTotal, start: s.lastResetTime })
        .get()
      if (row) return { ok: true, periodStart: row.start, amountUsed: row.used, amountTotal: row.total }
      const held = db.select().from(s).where(eq(s.id, id)).get()
      const used = held ? usedInRow(held, period) : 0
      return { ok: false, periodStart: Math.max(held?.lastResetTime ?? 0, period.start), amountUsed: used, amountTotal: held?.amountTotal ?? 0 }
    },

    // no holds: one process, whose takes end with it (a restart starts with no request running)
    async settle(id, periodStart, reserved, actual) {
      return db.transaction((tx) => {
        const held = tx.select().from(s).where(eq(s.id, id)).get()
        const settled = settleTake(held, periodStart, reserved, actual)
        if (held && settled.used !== held.amountUsed) tx.update(s).set({ amountUsed: settled.used }).where(eq(s.id, id)).run()
        return { charged: settled.charged, swept: false }
      })
    },

    async overdraw(id, amount, period) {
      const row = db.update(s).set({ amountUsed: sql`${usedIn(period)} + ${amount}`, ...into(period) }).where(eq(s.id, id)).returning({ used: s.amountUsed, total: s.amountTotal }).get()
      return row ? beyondQuota(amount, row.used, row.total) : amount
    },
  }
}
