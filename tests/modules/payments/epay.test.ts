/**
 * EPay (易支付) end to end against a fake gateway that follows the protocol: the signed submit, the notify that
 * credits once, and every notify that must credit nothing (forged, other merchant, other amount, unknown order,
 * replayed, not a success) answered as the protocol expects (`success` / `fail`).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { addUser, as, login } from '../../helpers/accounts'
import { sign } from '../../helpers/fake-payments/epay'
import { call } from '../../helpers/test-app'
import { startPaymentWorld, type PaymentWorld } from './setup'

let w: PaymentWorld
beforeAll(async () => {
  w = await startPaymentWorld()
})
afterAll(() => w.stop())

const pay = (amount: number, method = 'alipay') => call(w.app, 'POST', '/api/user/pay', { amount, payment_method: method }, as(w.user))

/** Submit the form as the browser does; the fake keeps the order. */
async function submitted(amount: number) {
  const res = await pay(amount)
  expect(res.status).toBe(200)
  const { url, params, trade_no } = res.body.data
  const page = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) })
  expect(page.status).toBe(200)
  return trade_no as string
}

describe('EPay', () => {
  test('the quote: 10 US$ at ¥7.3 is ¥73.00 for 5,000,000 quota; 100 at the 0.9 discount is ¥657.00', async () => {
    expect((await call(w.app, 'POST', '/api/user/amount', { amount: 10 }, as(w.user))).body.data).toMatchObject({ money: '73.00', money_cents: 7300, currency: 'CNY', quota: 5_000_000, discount: 1 })
    expect((await call(w.app, 'POST', '/api/user/amount', { amount: 100 }, as(w.user))).body.data).toMatchObject({ money: '657.00', discount: 0.9 })
    const low = await call(w.app, 'POST', '/api/user/amount', { amount: 0 }, as(w.user))
    expect(low.status).toBe(400)
  })

  test("a group's top-up ratio (TopupGroupRatio) prices its users' orders, on both providers; other groups pay the list price", async () => {
    await call(w.app, 'PUT', '/api/option/', { key: 'TopupGroupRatio', value: { vip: 0.8 } }, as(w.root))
    await addUser(w.app, { username: 'vip-payer', quota: 0, group: 'vip' })
    const vip = await login(w.app, 'vip-payer')
    expect((await call(w.app, 'POST', '/api/user/amount', { amount: 10 }, as(vip))).body.data).toMatchObject({ money: '58.40', quota: 5_000_000 })
    expect((await call(w.app, 'POST', '/api/user/stripe/amount', { amount: 10 }, as(vip))).body.data).toMatchObject({ money: '8.00' })
    expect((await call(w.app, 'POST', '/api/user/amount', { amount: 10 }, as(w.user))).body.data).toMatchObject({ money: '73.00' })
    // the order is opened at the group's price
    const res = await call(w.app, 'POST', '/api/user/pay', { amount: 10, payment_method: 'alipay' }, as(vip))
    expect(res.body.data.params.money).toBe('58.40')
    await call(w.app, 'PUT', '/api/option/', { key: 'TopupGroupRatio', value: {} }, as(w.root))
  })

  test('the submit is signed with MD5 over the sorted parameters and the key; the notify and return URLs are ours', async () => {
    const res = await pay(10)
    const { url, params } = res.body.data
    expect(url).toBe(`${w.epay.url}/submit.php`)
    expect(params).toMatchObject({ pid: w.epay.pid, type: 'alipay', money: '73.00', sign_type: 'MD5', notify_url: `${w.app.url}/api/user/epay/notify`, return_url: `${w.app.url}/wallet?paid=epay` })
    expect(params.sign).toBe(sign(params, w.epay.key))
    const row = await w.app.deps.repos.topups.findByTradeNo(params.out_trade_no)
    expect(row).toMatchObject({ status: 'pending', amount: 10, quota: 5_000_000, moneyCents: 7300, currency: 'CNY', paymentProvider: 'epay', paymentMethod: 'alipay' })
  })

  test('a method not offered, or an EPay that is not set up, is a 400 with a stable code', async () => {
    const res = await pay(10, 'bitcoin')
    expect(res.status).toBe(400)
    expect(res.body.data.code).toBe('unknown_method')
  })

  test('a valid notify credits once and answers success; its replay answers success and credits nothing', async () => {
    const before = await w.balance()
    const tradeNo = await submitted(10)
    expect(await w.epay.notify(tradeNo)).toBe('success')
    expect(await w.balance()).toBe(before + 5_000_000)
    expect(await w.epay.notify(tradeNo)).toBe('success')
    expect(await w.balance()).toBe(before + 5_000_000)
    const order = await w.app.deps.repos.topups.findByTradeNo(tradeNo)
    expect(order).toMatchObject({ status: 'success' })
    expect(order!.completeTime).toBeGreaterThan(0)
    const logs = w.app.db.$client.query("SELECT quota, content FROM logs WHERE type = 1 AND content LIKE ?").all(`%${tradeNo}%`)
    expect(logs).toHaveLength(1)
  })

  test('forged, another merchant, another amount, an unknown order: fail, nothing credited, order still pending', async () => {
    const before = await w.balance()
    const tradeNo = await submitted(20)
    const forged = w.epay.notifyParams(tradeNo, {}, false)
    forged.sign = '0'.repeat(32)
    const cases = [
      forged,
      { ...w.epay.notifyParams(tradeNo, { pid: '9999' }) },
      w.epay.notifyParams(tradeNo, { money: '0.01' }),
      w.epay.notifyParams('USR1NOnothing1700000000'),
      // signed with another key
      (() => {
        const p = w.epay.notifyParams(tradeNo, {}, false)
        p.sign = sign(p, 'some-other-key')
        return p
      })(),
    ]
    for (const params of cases) {
      const res = await w.app.fetch(`/api/user/epay/notify?${new URLSearchParams(params)}`)
      expect(await res.text()).toBe('fail')
    }
    expect(await w.balance()).toBe(before)
    expect((await w.app.deps.repos.topups.findByTradeNo(tradeNo))!.status).toBe('pending')
  })

  test('a trade that did not succeed is acknowledged and credits nothing; POSTed as a form it is read the same', async () => {
    const before = await w.balance()
    const tradeNo = await submitted(30)
    const waiting = w.epay.notifyParams(tradeNo, { trade_status: 'WAIT_BUYER_PAY' })
    expect(await (await w.app.fetch(`/api/user/epay/notify?${new URLSearchParams(waiting)}`)).text()).toBe('success')
    expect(await w.balance()).toBe(before)
    const paid = w.epay.notifyParams(tradeNo)
    const res = await w.app.fetch('/api/user/epay/notify', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://pay.elsewhere.example' }, body: new URLSearchParams(paid) })
    expect(await res.text()).toBe('success')
    expect(await w.balance()).toBe(before + 15_000_000)
  })

  test('a notify body past 64 KiB is refused before it is read', async () => {
    const res = await w.app.fetch('/api/user/epay/notify', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `a=${'x'.repeat(70_000)}` })
    expect(res.status).toBe(413)
  })

  test('the same notify sent 20 times at once credits once', async () => {
    const before = await w.balance()
    const tradeNo = await submitted(10)
    const params = new URLSearchParams(w.epay.notifyParams(tradeNo))
    const answers = await Promise.all(Array.from({ length: 20 }, () => w.app.fetch(`/api/user/epay/notify?${params}`).then((r) => r.text())))
    expect(answers.every((a) => a === 'success')).toBe(true)
    expect(await w.balance()).toBe(before + 5_000_000)
  })
})
