import type Stripe from 'stripe'
import type { OutboundFetch } from '../outbound/fetch'

// The SDK is loaded on first use: an instance without Stripe never pays its memory (idle RSS, bench/idle-rss.ts)
let sdk: Promise<typeof Stripe> | undefined
const loadStripe = () => (sdk ??= import('stripe').then((module) => module.default))

/** Seconds a webhook's signed timestamp may differ from now (Stripe's own default): an older one is a replay. */
const STRIPE_TOLERANCE_SECONDS = 300

/** The official SDK, dialling through the outbound guard (so PROVIDER_ENDPOINTS' `stripe` applies). */
export async function stripeClient(secret: string, dial: OutboundFetch): Promise<Stripe> {
  const Sdk = await loadStripe()
  return new Sdk(secret, {
    httpClient: Sdk.createFetchHttpClient(dial as Parameters<typeof Sdk.createFetchHttpClient>[0]),
    maxNetworkRetries: 1,
    timeout: 20_000,
  })
}

export interface StripeCheckoutInput {
  tradeNo: string
  userId: number
  amount: number
  moneyCents: number
  /** the line's name (a plan's title); default "US$<amount> of API quota" */
  name?: string
  successUrl: string
  cancelUrl: string
  promotionCodes: boolean
  /** unix seconds: the session closes when the order expires (Stripe allows 30 minutes to 24 hours) */
  expiresAt: number
}

/** A Checkout Session for one order: one line of the order's price, the trade number as the client reference. */
export async function createStripeCheckout(client: Stripe, input: StripeCheckoutInput): Promise<{ id: string; url: string }> {
  const session = await client.checkout.sessions.create(
    {
      mode: 'payment',
      client_reference_id: input.tradeNo,
      metadata: { trade_no: input.tradeNo, user_id: String(input.userId) },
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: input.moneyCents, product_data: { name: input.name ?? `US$${input.amount} of API quota` } } }],
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      expires_at: input.expiresAt,
      ...(input.promotionCodes ? { allow_promotion_codes: true } : {}),
    },
    // a retried create makes no second session
    { idempotencyKey: `checkout-${input.tradeNo}` },
  )
  if (!session.url) throw new Error('Stripe returned a session without a URL')
  return { id: session.id, url: session.url }
}

/** The event when `signature` (the Stripe-Signature header) signs `payload` with `secret` within the tolerance; else throws. */
export async function verifyStripeEvent(payload: string, signature: string, secret: string): Promise<Stripe.Event> {
  const Sdk = await loadStripe()
  return Sdk.webhooks.constructEventAsync(payload, signature, secret, STRIPE_TOLERANCE_SECONDS, Sdk.createSubtleCryptoProvider())
}
