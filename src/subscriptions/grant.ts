import type { NewUserSubscription, SubscriptionPlanRow } from '../db/repos/subscriptions'
import { periodAt, planEnd } from './period'

/** The held plan a user gets from `plan` at `now` (a paid order, an admin's grant): its whole period quota, from now. */
export function grantOf(plan: SubscriptionPlanRow, userId: number, now: number, source: string, tradeNo = ''): NewUserSubscription {
  const period = periodAt(plan.quotaResetPeriod, plan.quotaResetCustomSeconds, now, now)
  return {
    userId,
    planId: plan.id,
    amountTotal: plan.totalAmount,
    amountUsed: 0,
    startTime: now,
    endTime: planEnd(plan, now),
    status: 'active',
    source,
    lastResetTime: period.start,
    nextResetTime: period.next,
    tradeNo,
    upgradeGroup: plan.upgradeGroup, // the holder is raised to it in the grant's transaction (prev_user_group set there)
    createdAt: now,
    updatedAt: now,
  }
}
