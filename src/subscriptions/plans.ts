import type { NewSubscriptionPlan, SubscriptionPlanRow, SubscriptionRepo, UserSubscriptionRow } from '../db/repos/subscriptions'
import { GatewayError } from '../errors'
import { DURATION_UNITS, RESET_PERIODS, spendPeriod, usedIn } from './period'
import { grantOf } from './grant'

/** A refusal of the plan routes, with its stable code. */
export class PlanError extends GatewayError {
  constructor(code: string, message: string, param?: string, status = 400) {
    super(status, code, message, param, undefined, { code })
  }
}

/** A plan as root sends it (new-api's field names; `price_amount` in major units). */
export interface PlanInput {
  title: string
  subtitle?: string
  price_amount: number
  currency?: string
  duration_unit: string
  duration_value?: number
  custom_seconds?: number
  enabled?: boolean
  sort_order?: number
  stripe_price_id?: string
  creem_product_id?: string
  max_purchase_per_user?: number
  total_amount: number
  quota_reset_period?: string
  quota_reset_custom_seconds?: number
  models?: string
  groups?: string
  upgrade_group?: string
}

const CURRENCIES = ['USD', 'CNY']

/** Check a plan as a whole (what each field's schema cannot: combinations) and map it to the row. */
export function planRow(input: PlanInput, now: number, knownGroups?: ReadonlySet<string>): NewSubscriptionPlan {
  const title = input.title.trim()
  if (!title) throw new PlanError('invalid_plan', 'a plan needs a title', 'title')
  const currency = (input.currency ?? 'USD').toUpperCase()
  if (!CURRENCIES.includes(currency)) throw new PlanError('invalid_plan', `currency must be one of ${CURRENCIES.join(', ')}`, 'currency')
  const priceCents = Math.round(input.price_amount * 100)
  if (Math.abs(priceCents - input.price_amount * 100) > 1e-6) throw new PlanError('invalid_plan', 'price_amount has at most two decimals', 'price_amount')
  if (!(DURATION_UNITS as readonly string[]).includes(input.duration_unit)) throw new PlanError('invalid_plan', `duration_unit must be one of ${DURATION_UNITS.join(', ')}`, 'duration_unit')
  const durationValue = input.duration_value ?? 1
  const customSeconds = input.custom_seconds ?? 0
  if (input.duration_unit === 'custom' ? customSeconds <= 0 : durationValue <= 0) {
    throw new PlanError('invalid_plan', input.duration_unit === 'custom' ? 'a custom duration needs custom_seconds > 0' : 'duration_value must be at least 1', input.duration_unit === 'custom' ? 'custom_seconds' : 'duration_value')
  }
  const reset = input.quota_reset_period ?? 'never'
  if (!(RESET_PERIODS as readonly string[]).includes(reset)) throw new PlanError('invalid_plan', `quota_reset_period must be one of ${RESET_PERIODS.join(', ')}`, 'quota_reset_period')
  const resetSeconds = input.quota_reset_custom_seconds ?? 0
  if (reset === 'custom' && resetSeconds < 60) throw new PlanError('invalid_plan', 'a custom reset needs quota_reset_custom_seconds of at least 60', 'quota_reset_custom_seconds')
  const upgradeGroup = (input.upgrade_group ?? '').trim()
  if (upgradeGroup && knownGroups && !knownGroups.has(upgradeGroup)) throw new PlanError('unknown_group', `group "${upgradeGroup}" is not in GroupRatio: add it there first`, 'upgrade_group')
  return {
    title,
    subtitle: (input.subtitle ?? '').trim(),
    priceCents,
    currency,
    durationUnit: input.duration_unit,
    durationValue,
    customSeconds,
    enabled: input.enabled ?? true,
    sortOrder: input.sort_order ?? 0,
    stripePriceId: (input.stripe_price_id ?? '').trim(),
    creemProductId: (input.creem_product_id ?? '').trim(),
    maxPurchasePerUser: input.max_purchase_per_user ?? 0,
    totalAmount: input.total_amount,
    quotaResetPeriod: reset,
    quotaResetCustomSeconds: reset === 'custom' ? resetSeconds : 0,
    models: listText(input.models),
    groups: listText(input.groups),
    upgradeGroup,
    updatedAt: now,
  }
}

const listText = (value: string | undefined) => (value ?? '').split(',').map((e) => e.trim()).filter(Boolean).join(',')

/** A plan as the API shows it (new-api's names). */
export function planView(p: SubscriptionPlanRow) {
  return {
    id: p.id,
    title: p.title,
    subtitle: p.subtitle,
    price_amount: p.priceCents / 100,
    currency: p.currency,
    duration_unit: p.durationUnit,
    duration_value: p.durationValue,
    custom_seconds: p.customSeconds,
    enabled: p.enabled,
    sort_order: p.sortOrder,
    stripe_price_id: p.stripePriceId,
    creem_product_id: p.creemProductId,
    max_purchase_per_user: p.maxPurchasePerUser,
    total_amount: p.totalAmount,
    quota_reset_period: p.quotaResetPeriod,
    quota_reset_custom_seconds: p.quotaResetCustomSeconds,
    models: p.models,
    groups: p.groups,
    upgrade_group: p.upgradeGroup,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  }
}

/** A held plan at `now`: the period's use and the next reset read from the clock (a period that ended shows 0 used). */
export function subscriptionView(s: UserSubscriptionRow, plan: SubscriptionPlanRow | undefined, now: number) {
  const period = plan ? spendPeriod(plan.quotaResetPeriod, plan.quotaResetCustomSeconds, s.startTime, now) : { start: s.lastResetTime, next: s.nextResetTime }
  const current = s.lastResetTime >= period.start
  const state = s.status !== 'active' ? s.status : now >= s.endTime ? 'expired' : 'active'
  return {
    subscription: {
      id: s.id,
      user_id: s.userId,
      plan_id: s.planId,
      amount_total: s.amountTotal,
      amount_used: usedIn(s, period), // a debt the period before left is part of this one's use
      start_time: s.startTime,
      end_time: s.endTime,
      status: state,
      source: s.source,
      last_reset_time: current ? s.lastResetTime : period.start,
      next_reset_time: period.next && period.next < s.endTime ? period.next : 0,
      trade_no: s.tradeNo,
      upgrade_group: s.upgradeGroup,
      prev_user_group: s.prevUserGroup,
    },
    plan: plan ? { id: plan.id, title: plan.title, subtitle: plan.subtitle, quota_reset_period: plan.quotaResetPeriod, models: plan.models, groups: plan.groups, upgrade_group: plan.upgradeGroup } : undefined,
  }
}

/** The user's plans as the API shows them: `subscriptions` in force now, `all_subscriptions` every one. */
export async function subscriptionsOf(repo: Pick<SubscriptionRepo, 'listOfUser' | 'findPlan'>, userId: number, now: number) {
  const rows = await repo.listOfUser(userId)
  const plans = new Map<number, SubscriptionPlanRow | undefined>()
  for (const row of rows) if (!plans.has(row.planId)) plans.set(row.planId, await repo.findPlan(row.planId))
  const all = rows.map((row) => subscriptionView(row, plans.get(row.planId), now))
  return { subscriptions: all.filter((v) => v.subscription.status === 'active' && v.subscription.start_time <= now), all_subscriptions: all }
}

/** An admin's grant: the plan from now, whatever its price, enabled state or limit per user. */
export async function grantPlan(repo: Pick<SubscriptionRepo, 'findPlan' | 'grant'>, userId: number, planId: number, now: number) {
  const plan = await repo.findPlan(planId)
  if (!plan) throw new PlanError('unknown_plan', 'no plan has this id', 'plan_id', 404)
  return { row: await repo.grant(grantOf(plan, userId, now, 'admin')), plan }
}
