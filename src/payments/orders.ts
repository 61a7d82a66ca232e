import { LogType, type UserRow } from '../db/repos'
import { TopUpStatus, type PaymentCheck, type TopUpRow } from '../db/repos/topups'
import { PaymentError, type Quote } from './quote'
import { newTradeNo } from './trade-no'
import { grantOf } from '../subscriptions/grant'
import type { PaymentDeps } from './types'

/** Refuse a new order when the user already opened `TopUpPendingLimit` unpaid ones in the last hour (each costs a provider call). */
export async function assertMayOpenOrder(deps: Pick<PaymentDeps, 'options' | 'repos' | 'now'>, userId: number): Promise<void> {
  const limit = deps.options.get<number>('TopUpPendingLimit')
  if (limit > 0 && (await deps.repos.topups.countPendingSince(userId, deps.now() - 3600)) >= limit) {
    throw new PaymentError('too_many_orders', `you have ${limit} unpaid orders from the last hour: pay or wait before opening another`, undefined, 429)
  }
}

/** A pending order for the user at the quote's price. */
export function openOrder(
  deps: Pick<PaymentDeps, 'repos' | 'now'>,
  user: Pick<UserRow, 'id'>,
  quote: Pick<Quote, 'amount' | 'quota' | 'moneyCents'> & { currency: string; planId?: number },
  payment: { provider: string; method: string },
): Promise<TopUpRow> {
  const at = deps.now()
  return deps.repos.topups.insert({
    userId: user.id,
    tradeNo: newTradeNo(user.id, at),
    amount: quote.amount,
    quota: quote.quota,
    moneyCents: quote.moneyCents,
    currency: quote.currency,
    planId: quote.planId ?? 0,
    paymentMethod: payment.method,
    paymentProvider: payment.provider,
    status: TopUpStatus.pending,
    createTime: at,
  })
}

/** What became of a notify or webhook for an order. */
export type CreditOutcome = 'credited' | 'already_paid' | 'unknown_order' | 'mismatch' | 'closed'

/**
 * Credit the order `tradeNo` when it is pending and matches `check` (provider, money, currency): its quota to its
 * owner, the order paid and a top-up log row, in one transaction (db/repos/topups.ts). Any number of concurrent
 * calls, on any node, credit it once; the rest learn why not.
 */
export async function creditOrder(
  deps: Pick<PaymentDeps, 'repos' | 'now'>,
  tradeNo: string,
  check: PaymentCheck,
  context: { ip: string; requestId?: string; by: string; ownerId?: string },
): Promise<{ outcome: CreditOutcome; order?: TopUpRow }> {
  const order = tradeNo ? await deps.repos.topups.findByTradeNo(tradeNo) : undefined
  if (!order) return { outcome: 'unknown_order' }
  // the provider echoes the owner the order was opened for: another user's id is not this order's payment
  if (context.ownerId !== undefined && context.ownerId !== String(order.userId)) return { outcome: 'mismatch', order }
  const owner = await deps.repos.users.findById(order.userId)
  const plan = order.planId > 0 ? await deps.repos.subscriptions.findPlan(order.planId) : undefined
  const paid = owner
    ? await deps.repos.topups.complete(tradeNo, check, deps.now(), (row) => ({
        createdAt: deps.now(),
        type: LogType.topup,
        userId: row.userId,
        username: owner.username,
        quota: row.quota,
        content: plan
          ? `subscription (${context.by}): plan "${plan.title}" for ${(row.moneyCents / 100).toFixed(2)} ${row.currency}, order ${row.tradeNo}`
          : `online top-up (${context.by}): ${row.quota} quota for ${(row.moneyCents / 100).toFixed(2)} ${row.currency}, order ${row.tradeNo}`,
        ip: context.ip,
        requestId: context.requestId ?? '',
        other: JSON.stringify({ trade_no: row.tradeNo, provider: row.paymentProvider, method: row.paymentMethod, money_cents: row.moneyCents, currency: row.currency, ...(plan ? { plan_id: plan.id } : {}) }),
      }), plan && ((row) => grantOf(plan, row.userId, deps.now(), 'order', row.tradeNo)))
    : undefined
  if (paid) {
    deps.repos.users.forget(paid.userId)
    if (plan) deps.repos.subscriptions.forgetHolder(paid.userId) // the plan was granted in the order's transaction
    return { outcome: 'credited', order: paid }
  }
  const after = (await deps.repos.topups.findByTradeNo(tradeNo)) ?? order
  if (after.status === TopUpStatus.success) return { outcome: 'already_paid', order: after }
  if (after.status !== TopUpStatus.pending) return { outcome: 'closed', order: after }
  return { outcome: 'mismatch', order: after }
}
