/**
 * `/api/subscription/*`: root defines plans (each bad field a 400 with a stable code; admins may not), users see the
 * enabled ones and buy them through EPay, Stripe and Creem (a subscription order granted once, however often the
 * provider repeats itself), admins grant and withdraw them, and the user's view shows the period's use and reset.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { addUser, as, login } from '../../helpers/accounts'
import { call } from '../../helpers/test-app'
import { startPaymentWorld, type PaymentWorld } from '../payments/setup'

let w: PaymentWorld
beforeAll(async () => {
  w = await startPaymentWorld()
})
afterAll(() => w.stop())

const plan = (patch: Record<string, unknown> = {}) => ({
  title: 'Pro',
  price_amount: 9.9,
  currency: 'USD',
  duration_unit: 'month',
  duration_value: 1,
  total_amount: 5_000_000,
  quota_reset_period: 'daily',
  models: 'gpt-4o, claude-*',
  creem_product_id: 'prod_small',
  ...patch,
})
const create = async (patch: Record<string, unknown> = {}) => {
  const res = await call(w.app, 'POST', '/api/subscription/admin/plans', plan(patch), as(w.root))
  expect(res.status).toBe(200)
  return res.body.data as { id: number }
}
const held = async () => (await call(w.app, 'GET', '/api/subscription/self', undefined, as(w.user))).body.data

describe('plans', () => {
  test("root creates a plan with new-api's fields; users list the enabled ones; a disabled one is not offered", async () => {
    const res = await call(w.app, 'POST', '/api/subscription/admin/plans', plan(), as(w.root))
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ title: 'Pro', price_amount: 9.9, currency: 'USD', total_amount: 5_000_000, quota_reset_period: 'daily', models: 'gpt-4o,claude-*', enabled: true })
    const off = await create({ title: 'Old' })
    expect((await call(w.app, 'PATCH', `/api/subscription/admin/plans/${off.id}`, { enabled: false }, as(w.root))).status).toBe(200)
    const listed = (await call(w.app, 'GET', '/api/subscription/plans', undefined, as(w.user))).body.data as { plan: { title: string } }[]
    expect(listed.map((p) => p.plan.title)).toContain('Pro')
    expect(listed.map((p) => p.plan.title)).not.toContain('Old')
  })

  test('bad plans are 400s with a stable code; an admin who is not root may not define plans; unknown ids are 404', async () => {
    for (const patch of [{ currency: 'EUR' }, { price_amount: 1.234 }, { duration_unit: 'custom', custom_seconds: 0 }, { quota_reset_period: 'custom', quota_reset_custom_seconds: 5 }, { title: '   ' }]) {
      const res = await call(w.app, 'POST', '/api/subscription/admin/plans', plan(patch), as(w.root))
      expect([patch, res.status]).toEqual([patch, 400])
      expect(res.body.success).toBe(false)
    }
    expect((await call(w.app, 'POST', '/api/subscription/admin/plans', plan({ quota_reset_period: 'hourly' }), as(w.root))).status).toBe(400)
    await addUser(w.app, { username: 'helper', role: 10 })
    const admin = await login(w.app, 'helper')
    expect((await call(w.app, 'POST', '/api/subscription/admin/plans', plan(), as(admin))).status).toBe(403)
    const missing = await call(w.app, 'PUT', '/api/subscription/admin/plans/999999', plan(), as(w.root))
    expect(missing.status).toBe(404)
    expect(missing.body.data.code).toBe('unknown_plan')
  })

  test('an admin grants a plan; the user sees it with its period (0 used, next reset at midnight UTC) and can have it cancelled', async () => {
    const p = await create({ title: 'Granted' })
    const granted = await call(w.app, 'POST', `/api/subscription/admin/users/${w.userId}/subscriptions`, { plan_id: p.id }, as(w.root))
    expect(granted.status).toBe(200)
    const now = Math.floor(Date.now() / 1000)
    const mine = (await held()).subscriptions.find((s: any) => s.plan.title === 'Granted')
    expect(mine.subscription).toMatchObject({ amount_total: 5_000_000, amount_used: 0, status: 'active', source: 'admin' })
    expect(mine.subscription.next_reset_time).toBe(now - (now % 86_400) + 86_400)
    const id = granted.body.data.subscription.id
    expect((await call(w.app, 'POST', `/api/subscription/admin/user_subscriptions/${id}/invalidate`, {}, as(w.root))).status).toBe(200)
    expect((await held()).subscriptions.some((s: any) => s.subscription.id === id)).toBe(false)
    expect((await call(w.app, 'POST', '/api/subscription/admin/bind', { user_id: 999_999, plan_id: p.id }, as(w.root))).body.data.code).toBe('unknown_user')
  })

  test('the billing preference: one of new-api\'s four, anything else a 400', async () => {
    expect((await held()).billing_preference).toBe('subscription_first')
    expect((await call(w.app, 'PUT', '/api/subscription/self/preference', { billing_preference: 'wallet_first' }, as(w.user))).status).toBe(200)
    expect((await held()).billing_preference).toBe('wallet_first')
    expect((await call(w.app, 'PUT', '/api/subscription/self/preference', { billing_preference: 'everything' }, as(w.user))).status).toBe(400)
  })
})

describe('buying a plan', () => {
  const grantsOf = async (title: string) => (await held()).all_subscriptions.filter((s: any) => s.plan.title === title)

  test('EPay: the order is for the plan in CNY; the notify grants it once, its replay grants nothing; the wallet is not credited', async () => {
    const p = await create({ title: 'ViaEpay' })
    const before = await w.balance()
    const res = await call(w.app, 'POST', '/api/subscription/epay/pay', { plan_id: p.id, payment_method: 'alipay' }, as(w.user))
    expect(res.status).toBe(200)
    const { url, params, trade_no } = res.body.data
    expect(params.money).toBe('72.27') // 9.90 US$ at ¥7.3
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) })
    expect(await w.epay.notify(trade_no)).toBe('success')
    expect(await w.epay.notify(trade_no)).toBe('success')
    const grants = await grantsOf('ViaEpay')
    expect(grants).toHaveLength(1)
    expect(grants[0].subscription).toMatchObject({ source: 'order', trade_no, amount_total: 5_000_000 })
    expect(await w.balance()).toBe(before)
    expect(await w.app.deps.repos.topups.findByTradeNo(trade_no)).toMatchObject({ status: 'success', planId: p.id, quota: 0 })
  })

  test('Stripe: a Checkout Session at the plan price; the webhook, delivered twice, grants once', async () => {
    const p = await create({ title: 'ViaStripe' })
    const res = await call(w.app, 'POST', '/api/subscription/stripe/pay', { plan_id: p.id }, as(w.user))
    expect(res.status).toBe(200)
    const session = [...w.stripe.sessions.values()].find((s) => s.client_reference_id === res.body.data.trade_no)!
    expect(session).toMatchObject({ amount_total: 990, currency: 'usd' })
    const page = await fetch(`${w.stripe.url}/c/pay/${session.id}`, { method: 'POST', redirect: 'manual' })
    expect(page.status).toBe(303)
    const again = await w.stripe.event(session.id)
    const replay = await w.app.fetch('/api/stripe/webhook', { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': again.header }, body: again.payload })
    expect(replay.status).toBe(200)
    expect(await grantsOf('ViaStripe')).toHaveLength(1)
  })

  test('Creem: the plan\'s product; a paid checkout grants once', async () => {
    const p = await create({ title: 'ViaCreem', price_amount: 5 })
    const res = await call(w.app, 'POST', '/api/subscription/creem/pay', { plan_id: p.id }, as(w.user))
    expect(res.status).toBe(200)
    const checkout = [...w.creem.checkouts.values()].find((c) => c.request_id === res.body.data.trade_no)!
    expect(await w.creem.deliver(checkout.id)).toBe(200)
    expect(await w.creem.deliver(checkout.id)).toBe(200)
    expect(await grantsOf('ViaCreem')).toHaveLength(1)
  })

  test('refusals: a disabled or unknown plan 404, a free plan, a CNY plan on Stripe, the limit per user reached (409)', async () => {
    const off = await create({ title: 'Off', enabled: false })
    expect((await call(w.app, 'POST', '/api/subscription/stripe/pay', { plan_id: off.id }, as(w.user))).body.data.code).toBe('unknown_plan')
    const free = await create({ title: 'Free', price_amount: 0 })
    expect((await call(w.app, 'POST', '/api/subscription/stripe/pay', { plan_id: free.id }, as(w.user))).body.data.code).toBe('plan_not_for_sale')
    const yuan = await create({ title: 'Yuan', currency: 'CNY' })
    expect((await call(w.app, 'POST', '/api/subscription/stripe/pay', { plan_id: yuan.id }, as(w.user))).body.data.code).toBe('currency_unsupported')
    const once = await create({ title: 'Once', max_purchase_per_user: 1 })
    expect((await call(w.app, 'POST', `/api/subscription/admin/users/${w.userId}/subscriptions`, { plan_id: once.id }, as(w.root))).status).toBe(200)
    const again = await call(w.app, 'POST', '/api/subscription/stripe/pay', { plan_id: once.id }, as(w.user))
    expect(again.status).toBe(409)
    expect(again.body.data.code).toBe('purchase_limit')
  })
})
