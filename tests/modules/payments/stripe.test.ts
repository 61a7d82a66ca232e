/**
 * Stripe through the official SDK pointed (PROVIDER_ENDPOINTS `stripe`) at a fake following Stripe's Checkout
 * Sessions API, with webhooks signed as Stripe signs them (the SDK's own test header): a paid session credits
 * once; replays, forged or stale signatures, another amount or currency, another owner, an unknown session, and
 * an expiry credit nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Stripe from 'stripe'
import { as } from '../../helpers/accounts'
import { call } from '../../helpers/test-app'
import { startPaymentWorld, type PaymentWorld } from './setup'

let w: PaymentWorld
beforeAll(async () => {
  w = await startPaymentWorld()
})
afterAll(() => w.stop())

async function checkout(amount: number) {
  const res = await call(w.app, 'POST', '/api/user/stripe/pay', { amount, payment_method: 'stripe' }, as(w.user))
  expect(res.status).toBe(200)
  const session = [...w.stripe.sessions.values()].find((s) => s.client_reference_id === res.body.data.trade_no)!
  return { tradeNo: res.body.data.trade_no as string, link: res.body.data.pay_link as string, session }
}

const post = (payload: string, header: string) =>
  w.app.fetch('/api/stripe/webhook', { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload })

describe('Stripe', () => {
  test('a Checkout Session for the order: its price in cents, the trade number as client reference, the owner in metadata', async () => {
    const quote = await call(w.app, 'POST', '/api/user/stripe/amount', { amount: 100 }, as(w.user))
    expect(quote.body.data).toMatchObject({ money: '90.00', money_cents: 9000, currency: 'USD', quota: 50_000_000 })
    const { tradeNo, link, session } = await checkout(100)
    expect(link).toBe(`${w.stripe.url}/c/pay/${session.id}`)
    expect(session).toMatchObject({ mode: 'payment', amount_total: 9000, currency: 'usd', metadata: { trade_no: tradeNo, user_id: String(w.userId) }, success_url: `${w.app.url}/wallet?paid=stripe` })
    expect((await w.app.deps.repos.topups.findByTradeNo(tradeNo))!.providerRef).toBe(session.id)
  })

  test('paying on the checkout page credits once; the same event again credits nothing and still gets 200', async () => {
    const before = await w.balance()
    const { tradeNo, session } = await checkout(10)
    const page = await fetch(`${w.stripe.url}/c/pay/${session.id}`, { method: 'POST', redirect: 'manual' })
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toBe(`${w.app.url}/wallet?paid=stripe`)
    expect(await w.balance()).toBe(before + 5_000_000)
    const again = await w.stripe.event(session.id)
    expect((await post(again.payload, again.header)).status).toBe(200)
    expect(await w.balance()).toBe(before + 5_000_000)
    expect((await w.app.deps.repos.topups.findByTradeNo(tradeNo))!.status).toBe('success')
  })

  test('a forged signature or one older than 5 minutes is a 400 and credits nothing', async () => {
    const before = await w.balance()
    const { session } = await checkout(10)
    Object.assign(session, { payment_status: 'paid' })
    const { payload } = await w.stripe.event(session.id)
    const forged = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: 'whsec_not_the_secret' })
    expect((await post(payload, forged)).status).toBe(400)
    const stale = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: w.stripe.webhookSecret, timestamp: Math.floor(Date.now() / 1000) - 600 })
    expect((await post(payload, stale)).status).toBe(400)
    expect((await post(payload, '')).status).toBe(400)
    const tampered = await w.stripe.event(session.id)
    expect((await post(tampered.payload.replace('"amount_total":1000', '"amount_total":1001'), tampered.header)).status).toBe(400)
    expect(await w.balance()).toBe(before)
  })

  test('another amount, another currency, another owner, an unpaid session, an unknown order: 200, nothing credited, still pending', async () => {
    const before = await w.balance()
    const { tradeNo, session } = await checkout(10)
    const paid = { payment_status: 'paid' }
    for (const patch of [
      { ...paid, amount_total: 1 },
      { ...paid, currency: 'eur' },
      { ...paid, metadata: { trade_no: tradeNo, user_id: '999' } },
      { payment_status: 'unpaid' },
      { ...paid, client_reference_id: 'USR1NOunknown1700000000' },
    ]) {
      expect(await w.stripe.deliver(session.id, 'checkout.session.completed', patch)).toBe(200)
    }
    expect(await w.balance()).toBe(before)
    expect((await w.app.deps.repos.topups.findByTradeNo(tradeNo))!.status).toBe('pending')
  })

  test('an expired session closes its order; a completion arriving after it credits nothing', async () => {
    const before = await w.balance()
    const { tradeNo, session } = await checkout(10)
    expect(await w.stripe.deliver(session.id, 'checkout.session.expired')).toBe(200)
    expect((await w.app.deps.repos.topups.findByTradeNo(tradeNo))!.status).toBe('expired')
    expect(await w.stripe.deliver(session.id, 'checkout.session.completed', { payment_status: 'paid' })).toBe(200)
    expect(await w.balance()).toBe(before)
  })

  test('a Stripe that refuses the key leaves a failed order and a 502 with a stable code', async () => {
    const real = w.stripe.apiKey
    w.stripe.apiKey = 'sk_test_rotated'
    try {
      const res = await call(w.app, 'POST', '/api/user/stripe/pay', { amount: 10 }, as(w.user))
      expect(res.status).toBe(502)
      expect(res.body.data.code).toBe('provider_failed')
      expect((await w.app.deps.repos.topups.list({ userId: w.userId, status: 'failed' }, 0, 10)).total).toBe(1)
    } finally {
      w.stripe.apiKey = real
    }
  })
})
