import type { UserRow } from '../db/repos'
import { checkoutOrFail } from '../payments/checkout-failure'
import type { SubscriptionPlanRow } from '../db/repos/subscriptions'
import { createCreemCheckout } from '../payments/creem'
import { centsText, epaySubmit, type EpaySubmit } from '../payments/epay'
import { orderLifetime } from '../payments/order-list'
import { assertMayOpenOrder, openOrder } from '../payments/orders'
import { PaymentError } from '../payments/quote'
import { creemSettings, epaySettings, stripeSettings } from '../payments/settings'
import { createStripeCheckout, stripeClient } from '../payments/stripe'
import type { PaymentDeps } from '../payments/types'
import type { CallbackUrls } from '../payments/checkout'
import { PlanError } from './plans'

const notConfigured = (provider: string) => new PaymentError('provider_disabled', `${provider} payments are not set up on this instance`, 'payment_method')

/** The plan a user may buy now: enabled, priced, and under its limit per user. */
async function buyablePlan(deps: PaymentDeps, user: UserRow, planId: number): Promise<SubscriptionPlanRow> {
  const plan = await deps.repos.subscriptions.findPlan(planId)
  if (!plan || !plan.enabled) throw new PlanError('unknown_plan', 'this plan is not offered', 'plan_id', 404)
  if (plan.priceCents <= 0) throw new PlanError('plan_not_for_sale', 'this plan has no price: an admin grants it', 'plan_id')
  if (plan.maxPurchasePerUser > 0 && (await deps.repos.subscriptions.countOfPlan(user.id, plan.id)) >= plan.maxPurchasePerUser) {
    throw new PlanError('purchase_limit', `this plan can be bought ${plan.maxPurchasePerUser} time(s) per user`, 'plan_id', 409)
  }
  await assertMayOpenOrder(deps, user.id)
  return plan
}

/** EPay charges CNY: a plan priced in US$ is converted at `Price` (CNY per US$), as top-ups are. */
function epayCents(deps: PaymentDeps, plan: SubscriptionPlanRow): number {
  return plan.currency === 'CNY' ? plan.priceCents : Math.round(plan.priceCents * deps.options.get<number>('Price'))
}

export async function startPlanEpay(deps: PaymentDeps, user: UserRow, input: { planId: number; method: string }, urls: CallbackUrls): Promise<EpaySubmit & { trade_no: string }> {
  const settings = await epaySettings(deps)
  if (!settings) throw notConfigured('EPay')
  if (!settings.methods.some((m) => m.type === input.method)) throw new PaymentError('unknown_method', `"${input.method}" is not one of this instance's payment methods`, 'payment_method')
  const plan = await buyablePlan(deps, user, input.planId)
  const order = await openOrder(deps, user, { amount: 0, quota: 0, moneyCents: epayCents(deps, plan), currency: 'CNY', planId: plan.id }, { provider: 'epay', method: input.method })
  const submit = epaySubmit(settings, {
    tradeNo: order.tradeNo,
    method: input.method,
    name: `SUB${plan.id}`,
    money: centsText(order.moneyCents),
    notifyUrl: `${urls.base}/api/user/epay/notify`,
    returnUrl: `${urls.base}/wallet?paid=epay`,
  })
  return { ...submit, trade_no: order.tradeNo }
}

export async function startPlanStripe(deps: PaymentDeps, user: UserRow, planId: number, urls: CallbackUrls): Promise<{ pay_link: string; trade_no: string }> {
  const settings = await stripeSettings(deps)
  if (!settings) throw notConfigured('Stripe')
  const plan = await buyablePlan(deps, user, planId)
  if (plan.currency !== 'USD') throw new PlanError('currency_unsupported', 'Stripe checkouts here are in US$: this plan is priced in another currency', 'plan_id')
  const order = await openOrder(deps, user, { amount: 0, quota: 0, moneyCents: plan.priceCents, currency: 'USD', planId: plan.id }, { provider: 'stripe', method: 'stripe' })
  const client = await stripeClient(settings.secret, deps.fetch)
  const session = await checkoutOrFail(deps, order.tradeNo, 'Stripe', createStripeCheckout(client, {
    tradeNo: order.tradeNo,
    userId: user.id,
    amount: 0,
    moneyCents: order.moneyCents,
    name: plan.title,
    successUrl: `${urls.base}/wallet?paid=stripe`,
    cancelUrl: `${urls.base}/wallet`,
    promotionCodes: false,
    expiresAt: order.createTime + orderLifetime(deps),
  }))
  await deps.repos.topups.setProviderRef(order.tradeNo, session.id)
  return { pay_link: session.url, trade_no: order.tradeNo }
}

export async function startPlanCreem(deps: PaymentDeps, user: UserRow, planId: number, urls: CallbackUrls): Promise<{ checkout_url: string; trade_no: string }> {
  const settings = await creemSettings(deps)
  if (!settings) throw notConfigured('Creem')
  const plan = await buyablePlan(deps, user, planId)
  if (!plan.creemProductId) throw new PlanError('unknown_product', 'this plan has no Creem product', 'plan_id')
  const order = await openOrder(deps, user, { amount: 0, quota: 0, moneyCents: plan.priceCents, currency: plan.currency, planId: plan.id }, { provider: 'creem', method: 'creem' })
  const checkout = await checkoutOrFail(deps, order.tradeNo, 'Creem', createCreemCheckout(deps.fetch, settings, { productId: plan.creemProductId, tradeNo: order.tradeNo, userId: user.id, successUrl: `${urls.base}/wallet?paid=creem`, email: user.email || undefined }))
  await deps.repos.topups.setProviderRef(order.tradeNo, checkout.id)
  return { checkout_url: checkout.url, trade_no: order.tradeNo }
}
