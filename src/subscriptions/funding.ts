import type { QuotaRepo, ReserveResult } from '../db/repos/quota'
import type { SpendableSubscription, SubscriptionRepo } from '../db/repos/subscriptions'
import { spendPeriod } from './period'

export const BILLING_PREFERENCES = ['subscription_first', 'wallet_first', 'subscription_only', 'wallet_only'] as const
export type BillingPreference = (typeof BILLING_PREFERENCES)[number]

/** new-api's rule: anything else reads as the default, plan first. */
export function normalizePreference(value: string | undefined): BillingPreference {
  return (BILLING_PREFERENCES as readonly string[]).includes(value ?? '') ? (value as BillingPreference) : 'subscription_first'
}

/**
 * The held plan that answers for what no source could pay at settlement (a vendor that counted more than was reserved,
 * past what the plan's period and the wallet still hold): the cost is added to its period's use, beyond its quota if
 * need be, and the next period starts with that debt (`SubscriptionRepo.overdraw`).
 */
export interface PlanDebtor {
  subscriptionId: number
  /** what the period is computed from at settlement (`spendPeriod`) */
  quotaResetPeriod: string
  quotaResetCustomSeconds: number
  startTime: number
}

/** A reservation taken from a held plan: settlement ends it in the same period. */
export interface PlanHold {
  subscriptionId: number
  periodStart: number
  /** the preference lets the wallet pay: a cost beyond what the plan can still give in its period is taken there */
  walletAfter: boolean
  /** what a limited key holds for the request (`QuotaRepo.holdToken`); 0 for an unlimited key */
  tokenHeld: number
  /** the database's record of the take (PostgreSQL's lease: `SubscriptionRepo.take`); settlement ends it */
  hold?: number
  /** the plan itself: what neither its period nor the wallet can pay becomes its debt */
  debtor: PlanDebtor
}

/** A reservation: a plan's (`plan`), or the wallet's, with `debtor` the covering plan the preference lets pay after it. */
type Funded = ReserveResult & { plan?: PlanHold; debtor?: PlanDebtor }

/** Whether `name` is in a comma list (empty = everything); an entry ending in `*` matches a prefix. */
export function inList(list: string, name: string): boolean {
  const entries = list.split(',').map((e) => e.trim()).filter(Boolean)
  if (entries.length === 0) return true
  return entries.some((e) => (e.endsWith('*') ? name.startsWith(e.slice(0, -1)) : e === name))
}

export interface FundingDeps {
  quota: Pick<QuotaRepo, 'reserve' | 'holdToken' | 'settleElsewhere'>
  subscriptions?: Pick<SubscriptionRepo, 'spendable' | 'preference' | 'take' | 'holdsNoPlan'>
  /** unix seconds */
  now(): number
}

interface FundingCall {
  userId: number
  tokenId: number
  tokenLimited: boolean
  model: string
  group: string
}

interface Funding {
  preference: BillingPreference
  /** Take `amount` from the first source that holds it; a refusal answers the last source's balances. */
  fund(amount: number): Promise<Funded>
}

/**
 * What pays for one request: the user's plans that cover its model and group (soonest ending first) and the wallet,
 * in the order the user's billing preference says. Asked once per request; `fund` may then be called several times
 * (the reservation retries with a smaller amount). Synchronous for a user known to hold no plan (most users): the
 * wallet alone, as the plan lookup would have decided.
 */
export function fundingFor(deps: FundingDeps, call: FundingCall): Funding | Promise<Funding> {
  if (!deps.subscriptions || deps.subscriptions.holdsNoPlan?.(call.userId)) {
    return { preference: 'wallet_only', fund: (amount) => deps.quota.reserve(call.userId, call.tokenId, call.tokenLimited, amount) }
  }
  return planFunding(deps, call)
}

async function planFunding(deps: FundingDeps, call: FundingCall): Promise<Funding> {
  const now = deps.now()
  const held = await deps.subscriptions!.spendable(call.userId, now)
  const plans = held.filter((p) => inList(p.models, call.model) && inList(p.groups, call.group))
  // without a plan in force the wallet pays, whatever the preference (it is read only for holders)
  const preference = held.length ? normalizePreference(await deps.subscriptions!.preference(call.userId)) : 'wallet_only'
  const order: ('plan' | 'wallet')[] = {
    subscription_first: ['plan', 'wallet'] as const,
    wallet_first: ['wallet', 'plan'] as const,
    subscription_only: ['plan'] as const,
    wallet_only: ['wallet'] as const,
  }[preference].slice()

  const walletAfter = order.includes('wallet')

  async function fromPlans(amount: number): Promise<Funded> {
    if (plans.length === 0) return { ok: false, userQuota: 0 }
    // a limited key is held whatever pays, as for the wallet: first, so a plan is never taken for a key that cannot pay
    let tokenRemain: number | undefined
    if (call.tokenLimited) {
      const held = await deps.quota.holdToken(call.tokenId, amount)
      if (!held.ok) return { ok: false, userQuota: 0, tokenRemain: held.tokenRemain }
      tokenRemain = held.tokenRemain
    }
    const tokenHeld = call.tokenLimited ? amount : 0
    let best = 0
    for (const plan of plans) {
      const taken = await deps.subscriptions!.take(plan.id, amount, deps.now(), periodOf(plan, deps.now()), tokenHeld ? { id: call.tokenId, held: tokenHeld } : undefined)
      if (taken.ok) {
        const hold = { subscriptionId: plan.id, periodStart: taken.periodStart, walletAfter, tokenHeld, hold: taken.hold, debtor: debtorOf(plan) }
        return { ok: true, userQuota: taken.amountTotal - taken.amountUsed, tokenRemain, plan: hold }
      }
      best = Math.max(best, taken.amountTotal === 0 ? 0 : taken.amountTotal - taken.amountUsed)
    }
    if (tokenHeld) await deps.quota.settleElsewhere({ userId: call.userId, tokenId: call.tokenId, tokenHeld, tokenLimited: true, channelId: 0, charged: 0, now: deps.now() })
    return { ok: false, userQuota: best, tokenRemain: tokenRemain === undefined ? undefined : tokenRemain + tokenHeld }
  }

  return {
    preference,
    async fund(amount: number): Promise<Funded> {
      let refusal: Funded = { ok: false, userQuota: 0 }
      for (const source of order) {
        const result: Funded = source === 'plan' ? await fromPlans(amount) : await deps.quota.reserve(call.userId, call.tokenId, call.tokenLimited, amount)
        // the wallet holds it: a covering plan the preference lets pay answers for what the wallet cannot
        if (result.ok && source === 'wallet' && order.includes('plan') && plans[0]) result.debtor = debtorOf(plans[0])
        if (result.ok) return result
        refusal = result
      }
      return refusal
    },
  }
}

function periodOf(plan: SpendableSubscription, now: number) {
  return spendPeriod(plan.quotaResetPeriod, plan.quotaResetCustomSeconds, plan.startTime, now)
}

const debtorOf = (plan: SpendableSubscription): PlanDebtor => ({
  subscriptionId: plan.id,
  quotaResetPeriod: plan.quotaResetPeriod,
  quotaResetCustomSeconds: plan.quotaResetCustomSeconds,
  startTime: plan.startTime,
})
