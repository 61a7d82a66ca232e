/**
 * The order lists: a pending order past `TopUpOrderExpireMinutes` shows as expired (on the app's clock, moved
 * here instead of waited for) and leaves the pending filter, while a payment the provider still reports for it is
 * credited; Stripe's session closes when the order does; the filters by time, trade number, user, state and
 * provider; a user sees only their own.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { addUser, as, login } from '../../helpers/accounts'
import { call } from '../../helpers/test-app'
import { startPaymentWorld, type PaymentWorld } from './setup'

let w: PaymentWorld
let offset = 0
beforeAll(async () => {
  w = await startPaymentWorld()
  w.app.deps.clock.now = () => Date.now() + offset * 1000
})
afterAll(() => w.stop())

const epayOrder = async (session = w.user, amount = 10) => {
  const res = await call(w.app, 'POST', '/api/user/pay', { amount, payment_method: 'alipay' }, as(session))
  expect(res.status).toBe(200)
  // the browser's post of the signed form: the fake gateway keeps the order, to notify it later
  const { url, params } = res.body.data
  expect((await fetch(url, { method: 'POST', body: new URLSearchParams(params) })).status).toBe(200)
  return res.body.data.trade_no as string
}
const mine = async (query = '') => (await call(w.app, 'GET', `/api/user/topup/self?page_size=100${query}`, undefined, as(w.user))).body.data
const find = (page: { items: { trade_no: string }[] }, tradeNo: string) => page.items.find((o) => o.trade_no === tradeNo) as Record<string, unknown> | undefined

describe('expiry', () => {
  test('a pending order shows its expiry; past it, it reads expired everywhere and leaves the pending filter', async () => {
    const tradeNo = await epayOrder()
    const fresh = find(await mine(), tradeNo)!
    expect(fresh).toMatchObject({ status: 'pending', expire_time: (fresh.create_time as number) + 3600 })
    expect(find(await mine('&status=pending'), tradeNo)).toBeDefined()
    offset = 3600
    try {
      expect(find(await mine(), tradeNo)).toMatchObject({ status: 'expired' })
      expect(find(await mine('&status=pending'), tradeNo)).toBeUndefined()
      expect(find(await mine('&status=expired'), tradeNo)).toBeDefined()
      const admin = await call(w.app, 'GET', `/api/user/topup?keyword=${tradeNo}&status=expired`, undefined, as(w.root))
      expect(admin.body.data.items.map((o: { trade_no: string }) => o.trade_no)).toEqual([tradeNo])
    } finally {
      offset = 0
    }
  })

  test('a payment reported for an order past its time is still credited once (the money was taken)', async () => {
    const tradeNo = await epayOrder()
    offset = 7200
    try {
      const before = await w.balance()
      expect(await w.epay.notify(tradeNo)).toBe('success')
      expect(await w.balance()).toBe(before + 5_000_000)
      expect(find(await mine(), tradeNo)).toMatchObject({ status: 'success', expire_time: 0 })
      expect(await w.epay.notify(tradeNo)).toBe('success')
      expect(await w.balance()).toBe(before + 5_000_000)
    } finally {
      offset = 0
    }
  })

  test("the Stripe session closes when the order does; TopUpOrderExpireMinutes stays within Stripe's 30 minutes to 24 hours", async () => {
    await w.app.deps.options.set('TopUpOrderExpireMinutes', 45)
    try {
      const res = await call(w.app, 'POST', '/api/user/stripe/pay', { amount: 10 }, as(w.user))
      const session = [...w.stripe.sessions.values()].find((s) => s.client_reference_id === res.body.data.trade_no)!
      const order = (await w.app.deps.repos.topups.findByTradeNo(res.body.data.trade_no))!
      expect(session.expires_at).toBe(order.createTime + 45 * 60)
    } finally {
      await w.app.deps.options.set('TopUpOrderExpireMinutes', 60)
    }
    for (const value of [29, 1441]) {
      const res = await call(w.app, 'PUT', '/api/option/', { key: 'TopUpOrderExpireMinutes', value }, as(w.root))
      expect(res.status).toBe(400)
    }
  })
})

describe('filters', () => {
  test('by creation time: start_timestamp and end_timestamp bound it; start after end is a 400 naming it', async () => {
    const tradeNo = await epayOrder()
    const at = find(await mine(), tradeNo)!.create_time as number
    expect(find(await mine(`&start_timestamp=${at}&end_timestamp=${at}`), tradeNo)).toBeDefined()
    expect(find(await mine(`&start_timestamp=${at + 1}`), tradeNo)).toBeUndefined()
    expect(find(await mine(`&end_timestamp=${at - 1}`), tradeNo)).toBeUndefined()
    const bad = await call(w.app, 'GET', `/api/user/topup?start_timestamp=${at + 1}&end_timestamp=${at}`, undefined, as(w.root))
    expect(bad.status).toBe(400)
    expect(bad.body.success).toBe(false)
    expect(bad.body.message).toContain('start_timestamp')
  })

  test("admins filter by user and trade number; a user's own list never shows another's, whatever user_id says", async () => {
    const otherId = (await addUser(w.app, { username: 'other-payer', quota: 0 })).id
    const other = await login(w.app, 'other-payer')
    const theirs = await epayOrder(other)
    const byUser = await call(w.app, 'GET', `/api/user/topup?user_id=${otherId}`, undefined, as(w.root))
    expect(byUser.body.data.items.map((o: { trade_no: string }) => o.trade_no)).toEqual([theirs])
    const byTrade = await call(w.app, 'GET', `/api/user/topup?keyword=${theirs.slice(0, -10)}`, undefined, as(w.root))
    expect(byTrade.body.data.items.map((o: { trade_no: string }) => o.trade_no)).toEqual([theirs])
    const spoof = await call(w.app, 'GET', `/api/user/topup/self?user_id=${otherId}`, undefined, as(w.user))
    expect(spoof.body.data.items.every((o: { user_id: number }) => o.user_id === w.userId)).toBe(true)
    expect(find(spoof.body.data, theirs)).toBeUndefined()
  })
})

describe('the console page', () => {
  test("its CSP lets the wallet post the signed form to the EPay gateway (PayAddress's origin) and nowhere else", async () => {
    const csp = (await w.app.fetch('/wallet')).headers.get('content-security-policy')!
    expect(csp).toContain(`form-action 'self' ${new URL(w.epay.url).origin};`)
  })
})
