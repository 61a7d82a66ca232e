import type { Stripe } from 'stripe'
import { centsOf, epayVerify } from './epay'
import { creemVerify } from './creem'
import { creditOrder, type CreditOutcome } from './orders'
import { creemSettings, epaySettings, stripeSettings } from './settings'
import { verifyStripeEvent } from './stripe'
import type { PaymentDeps } from './types'

/** What a notify or webhook came to, for the operations log (never a secret, never the whole body). */
export interface NotificationNote {
  provider: 'epay' | 'stripe' | 'creem'
  outcome: CreditOutcome | 'bad_signature' | 'disabled' | 'ignored' | 'malformed' | 'expired'
  trade_no?: string
  event?: string
}

export interface NotificationContext {
  ip: string
  requestId?: string
  note: (note: NotificationNote) => void
}

/** A webhook's answer: status and body, as its provider expects them. */
export interface WebhookAnswer {
  status: number
  body: string
}


/**
 * EPay's asynchronous notify (GET or POST form): `success` once the order is credited, or was already; `fail`
 * otherwise (the gateway retries a `fail`, which a forged or mismatched notify never turns into a credit). A
 * notify for a trade that did not succeed is acknowledged with `success` and credits nothing.
 */
export async function epayNotify(deps: PaymentDeps, params: Record<string, string>, ctx: NotificationContext): Promise<'success' | 'fail'> {
  const settings = await epaySettings(deps)
  const tradeNo = params.out_trade_no ?? ''
  if (!settings) return noted(ctx, { provider: 'epay', outcome: 'disabled', trade_no: tradeNo }, 'fail')
  if (!epayVerify(params, settings.key) || params.pid !== settings.pid) return noted(ctx, { provider: 'epay', outcome: 'bad_signature', trade_no: tradeNo }, 'fail')
  if (params.trade_status !== 'TRADE_SUCCESS') return noted(ctx, { provider: 'epay', outcome: 'ignored', trade_no: tradeNo, event: params.trade_status }, 'success')
  const cents = centsOf(params.money ?? '')
  if (cents === undefined) return noted(ctx, { provider: 'epay', outcome: 'malformed', trade_no: tradeNo }, 'fail')
  const { outcome } = await creditOrder(deps, tradeNo, { provider: 'epay', moneyCents: cents, currency: 'CNY', providerRef: clip(params.trade_no) }, { ip: ctx.ip, requestId: ctx.requestId, by: 'epay', ownerId: /^USR(\d+)NO/.exec(tradeNo)?.[1] ?? '' })
  return noted(ctx, { provider: 'epay', outcome, trade_no: tradeNo }, outcome === 'credited' || outcome === 'already_paid' ? 'success' : 'fail')
}

/**
 * Stripe's webhook: the Stripe-Signature header checked by the SDK (HMAC of `<timestamp>.<raw body>`, at most
 * STRIPE_TOLERANCE_SECONDS old), 400 when it fails. `checkout.session.completed` (paid) and
 * `checkout.session.async_payment_succeeded` credit the session's order when its amount and currency match;
 * `checkout.session.expired` and `…async_payment_failed` close a pending order. Everything verified gets 200
 * (Stripe retries anything else, and a retry cannot change an answer that is already final).
 */
export async function stripeWebhook(deps: PaymentDeps, payload: string, signature: string, ctx: NotificationContext): Promise<WebhookAnswer> {
  const settings = await stripeSettings(deps)
  if (!settings) return noted(ctx, { provider: 'stripe', outcome: 'disabled' }, answer(404, 'stripe is not set up on this instance'))
  let event: Stripe.Event
  try {
    event = await verifyStripeEvent(payload, signature, settings.webhookSecret)
  } catch {
    return noted(ctx, { provider: 'stripe', outcome: 'bad_signature' }, answer(400, 'bad signature'))
  }
  const session = event.data.object as Stripe.Checkout.Session
  const tradeNo = typeof session.client_reference_id === 'string' ? session.client_reference_id : ''
  const base = { provider: 'stripe' as const, trade_no: tradeNo, event: event.type }
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      // a delayed method (bank debit) completes unpaid and succeeds later: only a paid session credits
      if (session.payment_status !== 'paid') return noted(ctx, { ...base, outcome: 'ignored' }, answer(200, 'ok'))
      const check = { provider: 'stripe', moneyCents: session.amount_total ?? -1, currency: (session.currency ?? '').toUpperCase(), providerRef: session.id }
      const { outcome } = await creditOrder(deps, tradeNo, check, { ip: ctx.ip, requestId: ctx.requestId, by: 'stripe', ownerId: session.metadata?.user_id ?? '' })
      return noted(ctx, { ...base, outcome }, answer(200, 'ok'))
    }
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed': {
      const closed = tradeNo ? await deps.repos.topups.settleUnpaid(tradeNo, event.type === 'checkout.session.expired' ? 'expired' : 'failed', deps.now()) : false
      return noted(ctx, { ...base, outcome: closed ? 'expired' : 'ignored' }, answer(200, 'ok'))
    }
    default:
      return noted(ctx, { ...base, outcome: 'ignored' }, answer(200, 'ok'))
  }
}

interface CreemEvent {
  eventType?: unknown
  object?: { id?: unknown; request_id?: unknown; metadata?: { user_id?: unknown }; order?: { amount?: unknown; currency?: unknown; status?: unknown } }
}

/**
 * Creem's webhook: `creem-signature` must be the HMAC-SHA256 (hex) of the raw body with the webhook secret,
 * else 401. `checkout.completed` with a paid order credits the checkout's `request_id` when amount and currency
 * match; verified events get 200 (Creem retries anything else).
 */
export async function creemWebhook(deps: PaymentDeps, payload: string, signature: string, ctx: NotificationContext): Promise<WebhookAnswer> {
  const settings = await creemSettings(deps)
  if (!settings) return noted(ctx, { provider: 'creem', outcome: 'disabled' }, answer(404, 'creem is not set up on this instance'))
  if (!creemVerify(payload, signature, settings.webhookSecret)) return noted(ctx, { provider: 'creem', outcome: 'bad_signature' }, answer(401, 'bad signature'))
  let event: CreemEvent
  try {
    event = JSON.parse(payload) as CreemEvent
  } catch {
    return noted(ctx, { provider: 'creem', outcome: 'malformed' }, answer(400, 'not JSON'))
  }
  const tradeNo = typeof event.object?.request_id === 'string' ? event.object.request_id : ''
  const base = { provider: 'creem' as const, trade_no: tradeNo, event: clip(String(event.eventType ?? '')) }
  const order = event.object?.order
  if (event.eventType !== 'checkout.completed' || order?.status !== 'paid') return noted(ctx, { ...base, outcome: 'ignored' }, answer(200, 'ok'))
  const check = {
    provider: 'creem',
    moneyCents: Number.isSafeInteger(order.amount) ? (order.amount as number) : -1,
    currency: typeof order.currency === 'string' ? order.currency.toUpperCase() : '',
    providerRef: typeof event.object?.id === 'string' ? clip(event.object.id) : undefined,
  }
  const { outcome } = await creditOrder(deps, tradeNo, check, { ip: ctx.ip, requestId: ctx.requestId, by: 'creem', ownerId: String(event.object?.metadata?.user_id ?? '') })
  return noted(ctx, { ...base, outcome }, answer(200, 'ok'))
}

const answer = (status: number, body: string): WebhookAnswer => ({ status, body })

function noted<T>(ctx: NotificationContext, note: NotificationNote, result: T): T {
  ctx.note(note)
  return result
}

const clip = (text: string | undefined): string | undefined => (text === undefined ? undefined : text.slice(0, 100))
