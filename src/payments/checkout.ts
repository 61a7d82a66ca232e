import type { UserRow } from '../db/repos'
import { checkoutOrFail } from './checkout-failure'
import { centsText, epaySubmit, type EpaySubmit } from './epay'
import { createCreemCheckout } from './creem'
import { orderLifetime } from './order-list'
import { assertMayOpenOrder, openOrder } from './orders'
import { PaymentError, quoteTopUp } from './quote'
import { creemSettings, epaySettings, stripeSettings } from './settings'
import { createStripeCheckout, stripeClient } from './stripe'
import type { PaymentDeps } from './types'

/** Where providers call back and send the browser back: the callback address (see `callbackBase`). */
export interface CallbackUrls {
  base: string
}

const notConfigured = (provider: string) => new PaymentError('provider_disabled', `${provider} payments are not set up on this instance`, 'payment_method')

/** An EPay order: the pending order and the signed form the browser posts to the gateway. */
export async function startEpay(deps: PaymentDeps, user: UserRow, input: { amount: number; method: string }, urls: CallbackUrls): Promise<EpaySubmit & { trade_no: string }> {
  const settings = await epaySettings(deps)
  if (!settings) throw notConfigured('EPay')
  if (!settings.methods.some((m) => m.type === input.method)) throw new PaymentError('unknown_method', `"${input.method}" is not one of this instance's payment methods`, 'payment_method')
  const quote = quoteTopUp(deps, 'epay', input.amount, user.group)
  await assertMayOpenOrder(deps, user.id)
  const order = await openOrder(deps, user, quote, { provider: 'epay', method: input.method })
  const submit = epaySubmit(settings, {
    tradeNo: order.tradeNo,
    method: input.method,
    name: `TUC${input.amount}`,
    money: centsText(order.moneyCents),
    notifyUrl: `${urls.base}/api/user/epay/notify`,
    returnUrl: `${urls.base}/wallet?paid=epay`,
  })
  return { ...submit, trade_no: order.tradeNo }
}

/** A Stripe order: the pending order and its Checkout Session's page. */
export async function startStripe(
  deps: PaymentDeps,
  user: UserRow,
  input: { amount: number; successUrl?: string; cancelUrl?: string },
  urls: CallbackUrls,
): Promise<{ pay_link: string; trade_no: string }> {
  const settings = await stripeSettings(deps)
  if (!settings) throw notConfigured('Stripe')
  const quote = quoteTopUp(deps, 'stripe', input.amount, user.group)
  await assertMayOpenOrder(deps, user.id)
  const order = await openOrder(deps, user, quote, { provider: 'stripe', method: 'stripe' })
  const client = await stripeClient(settings.secret, deps.fetch)
  const session = await checkoutOrFail(deps, order.tradeNo, 'Stripe', createStripeCheckout(client, {
    tradeNo: order.tradeNo,
    userId: user.id,
    amount: order.amount,
    moneyCents: order.moneyCents,
    successUrl: ownUrl(urls, input.successUrl) ?? `${urls.base}/wallet?paid=stripe`,
    cancelUrl: ownUrl(urls, input.cancelUrl) ?? `${urls.base}/wallet`,
    promotionCodes: deps.options.get<boolean>('StripePromotionCodesEnabled'),
    expiresAt: order.createTime + orderLifetime(deps),
  }))
  await deps.repos.topups.setProviderRef(order.tradeNo, session.id)
  return { pay_link: session.url, trade_no: order.tradeNo }
}

/** A Creem order for one of the configured products: the pending order and Creem's checkout page. */
export async function startCreem(deps: PaymentDeps, user: UserRow, productId: string, urls: CallbackUrls): Promise<{ checkout_url: string; trade_no: string }> {
  const settings = await creemSettings(deps)
  if (!settings) throw notConfigured('Creem')
  const product = settings.products.find((p) => p.productId === productId)
  if (!product) throw new PaymentError('unknown_product', 'this product is not offered', 'product_id')
  await assertMayOpenOrder(deps, user.id)
  const quote = { amount: product.quota, quota: product.quota, moneyCents: Math.round(product.price * 100), currency: product.currency.toUpperCase() }
  const order = await openOrder(deps, user, quote, { provider: 'creem', method: 'creem' })
  const checkout = await checkoutOrFail(deps, order.tradeNo, 'Creem', createCreemCheckout(deps.fetch, settings, { productId, tradeNo: order.tradeNo, userId: user.id, successUrl: `${urls.base}/wallet?paid=creem`, email: user.email || undefined }))
  await deps.repos.topups.setProviderRef(order.tradeNo, checkout.id)
  return { checkout_url: checkout.url, trade_no: order.tradeNo }
}

/** A return URL the client chose, only when it is on this instance (no open redirect through the provider). */
function ownUrl(urls: CallbackUrls, given: string | undefined): string | undefined {
  if (!given) return undefined
  try {
    const url = new URL(given, urls.base)
    return url.origin === new URL(urls.base).origin ? url.toString() : undefined
  } catch {
    return undefined
  }
}
