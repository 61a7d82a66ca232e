import type { NewSubscriptionPlan, NewUserSubscription, SubscriptionPlanRow, UserSubscriptionRow } from './rows'

export type { NewSubscriptionPlan, NewUserSubscription, SubscriptionPlanRow, UserSubscriptionRow } from './rows'

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
}

interface PlanTake {
  ok: boolean
  /** the period the quota was taken in (a settlement refunds only into that one) */
  periodStart: number
  amountUsed: number
  amountTotal: number
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
  grant(row: NewUserSubscription): Promise<UserSubscriptionRow>
  findById(id: number): Promise<UserSubscriptionRow | undefined>
  /** The user's plans, latest ending first. */
  listOfUser(userId: number): Promise<UserSubscriptionRow[]>
  /** How many of the plan the user holds or held (cancelled ones too): `max_purchase_per_user` counts them. */
  countOfPlan(userId: number, planId: number): Promise<number>
  /** Set a held plan's status (cancelled); false when there is no such row. */
  setStatus(id: number, status: string, now: number): Promise<boolean>
  /** The user's plans that may pay at `now`, soonest ending first. */
  spendable(userId: number, now: number): Promise<SpendableSubscription[]>
  preference(userId: number): Promise<string | undefined>
  setPreference(userId: number, preference: string): Promise<void>
  /** Take `amount` from the held plan's period `period` (see the interface's comment). */
  take(id: number, amount: number, now: number, period: PlanPeriod): Promise<PlanTake>
  /**
   * End a take: give back `reserved - actual`, or take what was short only as far as the period's quota reaches.
   * Only into the period the take was in: once the plan reset, the old period's use is gone. Answers the charge.
   */
  settle(id: number, periodStart: number, reserved: number, actual: number): Promise<number>
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
