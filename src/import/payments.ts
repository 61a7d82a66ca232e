import type { ImportRepo } from '../db/repos'
import type { NewTopUp } from '../db/repos/rows'
import { PlanError, planRow } from '../subscriptions/plans'
import type { SourceSchema } from './detect-schema'
import type { Source, SourceRow } from './read-source'
import type { Report } from './report'
import { bool, int, softDeleted, text } from './values'

const rowsOf = async (source: Source, schema: SourceSchema, table: string): Promise<SourceRow[]> => (schema.tables.has(table) ? (await source.all(table)).filter((row) => !softDeleted(row)) : [])
/** A group name as new-api stores it (varchar(64)). */
const group = (value: unknown): string => text(value).trim().slice(0, 64)
const STATUSES = new Set(['pending', 'success', 'expired', 'failed'])
const HELD = new Set(['active', 'cancelled', 'expired'])

/** new-api's money is a float in the order's currency: Stripe and Creem charge US$, EPay CNY. */
function paymentOf(method: string, provider: string) {
  const via = provider || (method === 'stripe' || method === 'creem' ? method : 'epay')
  return { provider: via, currency: via === 'epay' ? 'CNY' : 'USD' }
}

/**
 * new-api's money side for the users that came over: plans (checked as `POST /api/subscription/admin/plans` checks
 * them), the plans users hold, top-up orders (`top_ups`) and subscription orders, paid or not, with their trade
 * numbers (one already in the target is skipped). Nothing is credited: the balances came with the users.
 */
export async function importPayments(source: Source, schema: SourceSchema, repo: ImportRepo, user: (sourceId: number) => number, report: Report): Promise<void> {
  const quotaPerUnit = Number((await rowsOf(source, schema, 'options')).find((o) => text(o.key) === 'QuotaPerUnit')?.value) || 500_000
  const plans = new Map<number, number>()
  for (const row of await rowsOf(source, schema, 'subscription_plans')) {
    report.read('subscription_plans')
    const id = int(row.id)
    try {
      const checked = planRow(
        {
          title: text(row.title),
          subtitle: text(row.subtitle),
          price_amount: Math.round(Number(row.price_amount ?? 0) * 100) / 100,
          currency: text(row.currency) || 'USD',
          duration_unit: text(row.duration_unit) || 'month',
          duration_value: int(row.duration_value, 1),
          custom_seconds: int(row.custom_seconds),
          enabled: bool(row.enabled),
          sort_order: int(row.sort_order),
          stripe_price_id: text(row.stripe_price_id),
          creem_product_id: text(row.creem_product_id),
          max_purchase_per_user: Math.max(0, int(row.max_purchase_per_user)),
          total_amount: Math.max(0, int(row.total_amount)),
          quota_reset_period: text(row.quota_reset_period) || 'never',
          quota_reset_custom_seconds: int(row.quota_reset_custom_seconds),
          upgrade_group: group(row.upgrade_group), // GroupRatio comes over with the options: not checked against it here
        },
        int(row.updated_at) || Math.floor(Date.now() / 1000),
      )
      if (text(row.model_amount_limits).trim() && text(row.model_amount_limits).trim() !== '{}') report.issue('subscription_plans', 'model_amount_limits', 'per-model limits are not imported: the plan pays for every model', id)
      plans.set(id, await repo.insertPlan({ ...checked, createdAt: int(row.created_at) || checked.updatedAt }))
      report.imported('subscription_plans')
    } catch (error) {
      if (!(error instanceof PlanError)) throw error
      report.skipped('subscription_plans', 'invalid')
      report.issue('subscription_plans', error.param ?? 'plan', error.message, id)
    }
  }
  for (const row of await rowsOf(source, schema, 'user_subscriptions')) {
    report.read('user_subscriptions')
    const userId = user(int(row.user_id))
    const planId = plans.get(int(row.plan_id))
    if (!userId || !planId) {
      report.skipped('user_subscriptions', userId ? 'plan not imported' : 'user not imported')
      continue
    }
    const status = text(row.status) || 'active'
    if (!HELD.has(status)) report.issue('user_subscriptions', 'status', `status "${status}" has no counterpart: imported cancelled`, int(row.id), status)
    await repo.insertUserSubscription({
      userId,
      planId,
      amountTotal: Math.max(0, int(row.amount_total)),
      amountUsed: Math.max(0, int(row.amount_used)),
      startTime: int(row.start_time),
      endTime: int(row.end_time),
      status: HELD.has(status) ? status : 'cancelled',
      source: text(row.source) || 'import',
      lastResetTime: int(row.last_reset_time),
      nextResetTime: int(row.next_reset_time),
      // the group the plan raised its holder to and the one its end gives back (the sweep gives it back once the plan ended)
      upgradeGroup: group(row.upgrade_group),
      prevUserGroup: group(row.prev_user_group),
      createdAt: int(row.created_at) || int(row.start_time),
      updatedAt: int(row.updated_at) || int(row.start_time),
    })
    report.imported('user_subscriptions')
  }
  for (const table of ['top_ups', 'subscription_orders'] as const) {
    for (const row of await rowsOf(source, schema, table)) {
      report.read(table)
      const order = orderOf(row, table === 'subscription_orders' ? plans.get(int(row.plan_id)) : 0, user(int(row.user_id)), quotaPerUnit, report, table)
      if (!order) continue
      if (await repo.insertTopUp(order)) report.imported(table)
      else report.skipped(table, 'trade number already in the target')
    }
  }
}

function orderOf(row: SourceRow, planId: number | undefined, userId: number, quotaPerUnit: number, report: Report, table: string): NewTopUp | undefined {
  const id = int(row.id)
  const tradeNo = text(row.trade_no).trim()
  if (!userId) return void report.skipped(table, 'user not imported')
  if (!tradeNo || tradeNo.length > 255) return void report.skipped(table, 'no trade number')
  if (planId === undefined) return void report.skipped(table, 'plan not imported')
  const money = Number(row.money ?? 0)
  if (!Number.isFinite(money) || money < 0) {
    report.issue(table, 'money', 'not an amount of money: not imported', id, String(row.money))
    return void report.skipped(table, 'invalid')
  }
  let status = text(row.status) || 'pending'
  if (!STATUSES.has(status)) {
    report.issue(table, 'status', `status "${status}" has no counterpart: imported failed`, id, status)
    status = 'failed'
  }
  const method = text(row.payment_method)
  const { provider, currency } = paymentOf(method, text(row.payment_provider))
  const amount = planId ? 0 : Math.max(0, int(row.amount))
  return {
    userId,
    tradeNo,
    amount,
    quota: amount * quotaPerUnit,
    moneyCents: Math.round(money * 100),
    currency,
    paymentMethod: method,
    paymentProvider: provider,
    status,
    planId,
    createTime: int(row.create_time),
    completeTime: int(row.complete_time),
  }
}
