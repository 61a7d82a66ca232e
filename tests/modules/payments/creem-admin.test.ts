/**
 * Creem against a fake following its checkout API and webhook signature; the wallet's info; my orders and the
 * admins' orders; completing by hand (a manage log row with who and why); the secrets sealed at rest, masked in
 * answers and redacted from the manage log; the cross-origin guard lifted for the providers' posts only.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { Role } from '../../../src/db/repos/user-roles'
import { addUser, as, login } from '../../helpers/accounts'
import { call } from '../../helpers/test-app'
import { startPaymentWorld, type PaymentWorld } from './setup'

let w: PaymentWorld
let admin: string
beforeAll(async () => {
  w = await startPaymentWorld()
  await addUser(w.app, { username: 'cashier', role: Role.admin })
  admin = await login(w.app, 'cashier')
})
afterAll(() => w.stop())

async function creemCheckout() {
  const res = await call(w.app, 'POST', '/api/user/creem/pay', { product_id: 'prod_small', payment_method: 'creem' }, as(w.user))
  expect(res.status).toBe(200)
  const checkout = [...w.creem.checkouts.values()].find((c) => c.request_id === res.body.data.trade_no)!
  return { tradeNo: res.body.data.trade_no as string, url: res.body.data.checkout_url as string, checkout }
}

describe('Creem', () => {
  test('the checkout names the product and our trade number; paying credits the product quota once', async () => {
    const before = await w.balance()
    const { tradeNo, url, checkout } = await creemCheckout()
    expect(url).toBe(`${w.creem.url}/checkout/${checkout.id}`)
    expect(checkout).toMatchObject({ product_id: 'prod_small', success_url: `${w.app.url}/wallet?paid=creem`, metadata: { trade_no: tradeNo, user_id: String(w.userId) } })
    const paid = await fetch(url, { method: 'POST', redirect: 'manual' })
    expect(paid.status).toBe(303)
    expect(await w.balance()).toBe(before + 2_500_000)
    expect(await w.creem.deliver(checkout.id)).toBe(200)
    expect(await w.balance()).toBe(before + 2_500_000)
  })

  test('a forged signature is a 401; another amount or currency, or another event, credits nothing', async () => {
    const before = await w.balance()
    const { tradeNo, checkout } = await creemCheckout()
    expect(await w.creem.deliver(checkout.id, {}, createHmac('sha256', 'wrong').update('x').digest('hex'))).toBe(401)
    expect(await w.creem.deliver(checkout.id, {}, 'not-hex')).toBe(401)
    expect(await w.creem.deliver(checkout.id, { amount: 1 })).toBe(200)
    expect(await w.creem.deliver(checkout.id, { currency: 'EUR' })).toBe(200)
    expect(await w.creem.deliver(checkout.id, { eventType: 'refund.created' })).toBe(200)
    expect(await w.balance()).toBe(before)
    expect((await w.app.deps.repos.topups.findByTradeNo(tradeNo))!.status).toBe('pending')
  })

  test('an unknown product is a 400 with a stable code', async () => {
    const res = await call(w.app, 'POST', '/api/user/creem/pay', { product_id: 'prod_nope' }, as(w.user))
    expect(res.status).toBe(400)
    expect(res.body.data.code).toBe('unknown_product')
  })
})

describe('the wallet, the orders and the admins', () => {
  test('topup/info says which providers are on, the presets, discounts and minimum, and no secret', async () => {
    const res = await call(w.app, 'GET', '/api/user/topup/info', undefined, as(w.user))
    expect(res.body.data).toMatchObject({
      enable_online_topup: true,
      enable_stripe_topup: true,
      enable_creem_topup: true,
      min_topup: 1,
      amount_options: [10, 20, 50, 100, 200, 500],
      discount: { '100': 0.9 },
      creem_products: [{ productId: 'prod_small', name: 'Small pack', price: 5, currency: 'USD', quota: 2_500_000 }],
    })
    expect(res.body.data.pay_methods.map((m: { type: string }) => m.type)).toEqual(['alipay', 'wxpay', 'stripe'])
    const text = JSON.stringify(res.body)
    for (const secret of [w.epay.key, w.stripe.apiKey, w.stripe.webhookSecret, w.creem.apiKey, w.creem.webhookSecret]) expect(text).not.toContain(secret)
  })

  test('secrets: sealed in the options table, masked by GET /api/option/, redacted from the manage log; the mask sent back keeps them', async () => {
    const stored = w.app.db.$client.query("SELECT value FROM options WHERE key = 'StripeApiSecret'").get() as { value: string }
    expect(stored.value).toStartWith('v1:')
    expect(stored.value).not.toContain(w.stripe.apiKey)
    const options = (await call(w.app, 'GET', '/api/option/', undefined, as(w.root))).body.data as { key: string; value: unknown }[]
    expect(options.find((o) => o.key === 'StripeApiSecret')).toMatchObject({ value: '', configured: true })
    expect(options.find((o) => o.key === 'EpayId')!.value).toBe(w.epay.pid)
    expect(JSON.stringify(options)).not.toContain(w.epay.key)
    const kept = await call(w.app, 'PUT', '/api/option/', { key: 'StripeApiSecret', value: '********' }, as(w.root))
    expect(kept.body.data).toMatchObject({ value: '', configured: true })
    expect((w.app.db.$client.query("SELECT value FROM options WHERE key = 'StripeApiSecret'").get() as { value: string }).value).toBe(stored.value)
    await w.app.deps.metering.logs.flush()
    const manage = w.app.db.$client.query('SELECT other FROM logs WHERE type = 3').all() as { other: string }[]
    const text = JSON.stringify(manage)
    for (const secret of [w.epay.key, w.stripe.apiKey, w.creem.webhookSecret]) expect(text).not.toContain(secret)
    expect(text).toContain('[redacted]')
  })

  test('my orders are mine; admins list all and filter by status and provider; users may not', async () => {
    const mine = await call(w.app, 'GET', '/api/user/topup/self?page_size=100', undefined, as(w.user))
    expect(mine.body.data.total).toBeGreaterThan(0)
    expect(mine.body.data.items.every((o: { user_id: number }) => o.user_id === w.userId)).toBe(true)
    expect(mine.body.data.items[0]).toHaveProperty('trade_no')
    expect((await call(w.app, 'GET', '/api/user/topup', undefined, as(w.user))).status).toBe(403)
    const creem = await call(w.app, 'GET', '/api/user/topup?provider=creem&status=success', undefined, as(admin))
    expect(creem.body.data.total).toBe(1)
    expect(creem.body.data.items[0]).toMatchObject({ payment_provider: 'creem', status: 'success', money: 5, currency: 'USD' })
    expect((await call(w.app, 'GET', '/api/user/topup?status=lost', undefined, as(admin))).status).toBe(400)
  })

  test('an admin completes a pending order by hand once, with a reason in the manage log; a paid or unknown one is refused', async () => {
    const { tradeNo } = await creemCheckout()
    const before = await w.balance()
    const done = await call(w.app, 'POST', '/api/user/topup/complete', { trade_no: tradeNo, reason: 'paid by bank transfer, ticket 42' }, as(admin))
    expect(done.status).toBe(200)
    expect(done.body.data).toMatchObject({ trade_no: tradeNo, status: 'success' })
    expect(await w.balance()).toBe(before + 2_500_000)
    const again = await call(w.app, 'POST', '/api/user/topup/complete', { trade_no: tradeNo, reason: 'twice' }, as(admin))
    expect(again.status).toBe(409)
    expect(again.body.data.code).toBe('already_paid')
    expect((await call(w.app, 'POST', '/api/user/topup/complete', { trade_no: 'nope', reason: 'x' }, as(admin))).body.data.code).toBe('unknown_order')
    expect((await call(w.app, 'POST', '/api/user/topup/complete', { trade_no: tradeNo }, as(admin))).status).toBe(400)
    expect(await w.balance()).toBe(before + 2_500_000)
    await w.app.deps.metering.logs.flush()
    const row = w.app.db.$client.query("SELECT username, content, other FROM logs WHERE type = 3 AND content LIKE '%topup/complete%'").get() as { username: string; other: string }
    expect(row.username).toBe('cashier')
    expect(JSON.parse(row.other)).toMatchObject({ trade_no: tradeNo, reason: 'paid by bank transfer, ticket 42' })
  })

  test('the cross-origin guard still covers the user routes, and lifts only for the providers’ posts', async () => {
    const foreign = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }
    const pay = await call(w.app, 'POST', '/api/user/pay', { amount: 10, payment_method: 'alipay' }, { ...as(w.user), ...foreign })
    expect(pay.status).toBe(403)
    const hook = await w.app.fetch('/api/creem/webhook', { method: 'POST', headers: { 'content-type': 'application/json', ...foreign, 'creem-signature': 'x' }, body: '{}' })
    expect(hook.status).toBe(401)
  })

  test('opening more than TopUpPendingLimit unpaid orders in an hour is a 429', async () => {
    await w.app.deps.options.set('TopUpPendingLimit', 1)
    try {
      const res = await call(w.app, 'POST', '/api/user/pay', { amount: 10, payment_method: 'alipay' }, as(w.user))
      expect(res.status).toBe(429)
      expect(res.body.data.code).toBe('too_many_orders')
    } finally {
      await w.app.deps.options.set('TopUpPendingLimit', 10)
    }
  })
})
