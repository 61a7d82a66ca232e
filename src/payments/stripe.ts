import Stripe from 'stripe'
import type { OutboundFetch } from '../outbound/fetch'

/** Seconds a webhook's signed timestamp may differ from now (Stripe's own default): an older one is a replay. */
const STRIPE_TOLERANCE_SECONDS = 300

/** The official SDK, dialling through the outbound guard (so PROVIDER_ENDPOINTS' `stripe` applies). */
export function stripeClient(secret: string, dial: OutboundFetch): Stripe {
  return new Stripe(secret, {
    httpClient: Stripe.createFetchHttpClient(dial as Parameters<typeof Stripe.createFetchHttpClient>[0]),
    maxNetworkRetries: 1,
    timeout: 20_000,
  })
}

export interface StripeCheckoutInput {
  tradeNo: string
  userId: number
  amount: number
  moneyCents: number
  successUrl: string
  cancelUrl: string
  promotionCodes: boolean
}

/** A Checkout Session for one order: one line of the order's price, the trade number as the client reference. */
export async function createStripeCheckout(client: Stripe, input: StripeCheckoutInput): Promise<{ id: string; url: string }> {
  const session = await client.checkout.sessions.create(
    {
      mode: 'payment',
      client_reference_id: input.tradeNo,
      metadata: { trade_no: input.tradeNo, user_id: String(input.userId) },
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: input.moneyCents, product_data: { name: `US$${input.amount} of API quota` } } }],
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      ...(input.promotionCodes ? { allow_promotion_codes: true } : {}),
    },
    // a retried create makes no second session
    { idempotencyKey: `checkout-${input.tradeNo}` },
  )
  if (!session.url) throw new Error('Stripe returned a session without a URL')
  return { id: session.id, url: session.url }
}

const crypto = Stripe.createSubtleCryptoProvider()

/** The event when `signature` (the Stripe-Signature header) signs `payload` with `secret` within the tolerance; else throws. */
export function verifyStripeEvent(payload: string, signature: string, secret: string): Promise<Stripe.Event> {
  return Stripe.webhooks.constructEventAsync(payload, signature, secret, STRIPE_TOLERANCE_SECONDS, crypto)
}
