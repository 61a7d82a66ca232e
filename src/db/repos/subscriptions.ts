import type { NewSubscriptionPlan, NewUserSubscription, SubscriptionPlanRow, UserSubscriptionRow } from './rows'

export type { NewSubscriptionPlan, NewUserSubscription, SubscriptionPlanRow, UserSubscriptionRow } from './rows'

/** A held plan that ended (cancelled, expired) and the group its end gave back to its holder, if it did. */
export interface EndedPlan {
  userId: number
  restoredGroup?: string
}

/** A held plan that may pay now (active, started, not ended), with what the spend needs of its plan. */
export interface SpendableSubscription {
  id: number
  planId: number
  startTime: number
  endTime: number
  models: string
  groups: string
  quotaResetPeriod: string
  quotaResetCustomSeconds: number
}

/** The period a spend falls in: its start (the row's `last_reset_time`) and the next reset (0: none). */
export interface PlanPeriod {
  start: number
  next: number
  /**
   * the period's length in seconds (`spendPeriod`; a month's average for monthly ones): how many whole periods passed
   * since the row's, each of which paid one quota of a debt carried into this one
   */
  length?: number
}

interface PlanTake {
  ok: boolean
  /** the period the quota was taken in (a settlement refunds only into that one) */
  periodStart: number
  amountUsed: number
  amountTotal: number
  /** the database's record of the take, where it keeps one (PostgreSQL: a row its node renews, given back by a sweep if the node dies) */
  hold?: number
}

/** What a settlement of a take charged the plan, and whether a sweep had given the take back before it (its node was thought dead). */
interface PlanSettled {
  charged: number
  swept: boolean
}

/**
 * Subscription plans and the plans users hold. A spend is one conditional UPDATE on the held plan (`take`): the
 * period's use starts at zero when the clock is past the row's period, and the take happens only while the period's
 * quota holds it (or the plan has no cap), the plan is active and within its time. Concurrent takes, on one node or
 * several, never spend more than the period's quota.
 */
export interface SubscriptionRepo {
  listPlans(enabledOnly: boolean): Promise<SubscriptionPlanRow[]>
  findPlan(id: number): Promise<SubscriptionPlanRow | undefined>
  insertPlan(row: NewSubscriptionPlan): Promise<SubscriptionPlanRow>
  updatePlan(id: number, patch: Partial<NewSubscriptionPlan>): Promise<SubscriptionPlanRow | undefined>
  /**
   * Insert a held plan; a plan with an upgrade group raises its holder to it in the same transaction
   * (`prev_user_group`: what its end gives back).
   */
  grant(row: NewUserSubscription): Promise<UserSubscriptionRow>
  findById(id: number): Promise<UserSubscriptionRow | undefined>
  /** The user's plans, latest ending first. */
  listOfUser(userId: number): Promise<UserSubscriptionRow[]>
  /** How many of the plan the user holds or held (cancelled ones too): `max_purchase_per_user` counts them. */
  countOfPlan(userId: number, planId: number): Promise<number>
  /**
   * Cancel an active held plan and, in the same transaction, give its holder's group back when the plan raised it, the
   * holder is still in the upgrade group and no other plan in force holds them there. Undefined: no active plan has this id.
   */
  cancel(id: number, now: number): Promise<EndedPlan | undefined>
  /** The same for plans past their end that moved their holder's group (marked expired), at most `limit` of them. */
  expireUpgrades(now: number, limit: number): Promise<EndedPlan[]>
  /** The user's plans that may pay at `now`, soonest ending first. */
  spendable(userId: number, now: number): Promise<SpendableSubscription[]>
  preference(userId: number): Promise<string | undefined>
  setPreference(userId: number, preference: string): Promise<void>
  /**
   * Take `amount` from the held plan's period `period` (see the interface's comment). The period's use starts at the
   * debt the period before left (`previous`), not at zero. `tokenHeld` is what a limited key holds for the same request
   * (`QuotaRepo.holdToken`): a sweep of the take gives it back to the key too.
   */
  take(id: number, amount: number, now: number, period: PlanPeriod, token?: { id: number; held: number }): Promise<PlanTake>
  /**
   * End a take (its `hold`): give back `reserved - actual`, or take what was short only as far as the period's quota
   * reaches. Only into the period the take was in: once the plan reset, the old period's use is gone. A take a sweep
   * already gave back is charged only as far as the period's quota reaches (`swept`: the key's hold went back too).
   */
  settle(id: number, periodStart: number, reserved: number, actual: number, hold?: number): Promise<PlanSettled>
  /**
   * Add `amount` to the held plan's use in `period`, beyond its quota if need be: a cost no source could pay becomes the
   * plan's debt, which the next period starts with (see `take`). Whatever the plan's state: the request was served.
   * Answers the part beyond the quota (the debt).
   */
  overdraw(id: number, amount: number, period: PlanPeriod): Promise<number>
  /**
   * Drop what this node remembers of the user's plans (all users: undefined): a purchase granted a plan, or another
   * node did (plan-holders.ts). Synchronous, in memory.
   */
  forgetHolder(userId?: number): void
  /**
   * Whether this node knows, from memory, that the user holds no plan (what `spendable` would answer without a query):
   * a metered request then goes to the wallet without an await (plan-holders.ts). Synchronous.
   */
  holdsNoPlan?(userId: number): boolean
}

/** What a dialect implements: the repository without its in-memory part (plan-holders.ts adds it). */
export type StoredSubscriptionRepo = Omit<SubscriptionRepo, 'forgetHolder' | 'holdsNoPlan'>
