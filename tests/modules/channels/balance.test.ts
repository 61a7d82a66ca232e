import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { fakeUpstream, userHeaders } from './helpers'

/**
 * Issue #33, channel balances: new-api's GET /api/channel/update_balance/:id and /update_balance ask each vendor's
 * documented billing endpoint (under the channel's base URL, through the outbound guard, with the channel's key) and
 * store `balance` and `balance_updated_time` on the channel. The fake answers as each vendor does.
 */
let app: TestApp
let admin: Record<string, string>
const vendor = fakeUpstream((req, url) => {
  if (req.headers.get('authorization') !== 'Bearer sk-live') return Response.json({ error: { message: 'bad key' } }, { status: 401 })
  switch (url.pathname) {
    case '/v1/dashboard/billing/subscription':
      return Response.json({ object: 'billing_subscription', has_payment_method: true, hard_limit_usd: 120, soft_limit_usd: 100, system_hard_limit_usd: 120 })
    case '/v1/dashboard/billing/usage':
      return Response.json({ object: 'list', total_usage: 2550 }) // cents
    case '/user/balance':
      return Response.json({ is_available: true, balance_infos: [{ currency: 'CNY', total_balance: '70.00', granted_balance: '0', topped_up_balance: '70.00' }, { currency: 'USD', total_balance: '9.50', granted_balance: '0', topped_up_balance: '9.50' }] })
    case '/api/v1/credits':
      return Response.json({ data: { total_credits: 25, total_usage: 7.25 } })
    case '/v1/user/info':
      return Response.json({ code: 20000, message: 'OK', status: true, data: { id: 'u', balance: '1.0', chargeBalance: '2.0', totalBalance: '3.0' } })
    case '/v1/users/me/balance':
      return Response.json({ code: 0, status: true, scode: '0x0', data: { available_balance: 49.5, voucher_balance: 0, cash_balance: 49.5 } })
    case '/huge/v1/dashboard/billing/subscription':
      return new Response(`{"hard_limit_usd": 1, "pad": "${'x'.repeat(400_000)}"}`)
  }
  return new Response('not here', { status: 404 })
})

beforeAll(async () => {
  app = await startTestApp()
  admin = await userHeaders(app)
})
afterAll(async () => {
  await app.stop()
  vendor.stop()
})

async function channel(type: number, base = vendor.url, key = 'sk-live'): Promise<number> {
  const res = await call(app, 'POST', '/api/channel/', { name: `c${type}`, type, key, base_url: base, models: 'm' }, admin)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data.id
}

describe('GET /api/channel/update_balance/:id', () => {
  const cases = [
    { type: 1, name: 'OpenAI-style dashboard: hard limit less the month\'s usage (cents)', balance: 120 - 25.5, paths: ['/v1/dashboard/billing/subscription', '/v1/dashboard/billing/usage?start_date='] },
    { type: 43, name: 'DeepSeek: the USD balance when the account has one', balance: 9.5, paths: ['/user/balance'] },
    { type: 20, name: 'OpenRouter: credits less usage', balance: 17.75, paths: ['/api/v1/credits'], base: '/api' },
    { type: 40, name: 'SiliconFlow: totalBalance', balance: 3, paths: ['/v1/user/info'] },
    { type: 25, name: 'Moonshot: available_balance', balance: 49.5, paths: ['/v1/users/me/balance'] },
  ]
  for (const c of cases) {
    test(`${c.name}: stored with the time, shown in the channel list`, async () => {
      const id = await channel(c.type, vendor.url + (c.base ?? ''))
      vendor.seen.length = 0
      const before = Math.floor(Date.now() / 1000)
      const res = await call(app, 'GET', `/api/channel/update_balance/${id}`, undefined, admin)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body).toMatchObject({ success: true, balance: c.balance, data: { balance: c.balance } })
      expect(vendor.seen.map((s) => s.path).every((p, i) => p.startsWith(c.paths[i]!))).toBe(true)
      expect(vendor.seen).toHaveLength(c.paths.length)
      const row = (await app.deps.repos.channels.findById(id))!
      expect(row.balance).toBe(c.balance)
      expect(row.balanceUpdatedTime).toBeGreaterThanOrEqual(before)
      const list = await call(app, 'GET', '/api/channel/?p=1&page_size=100', undefined, admin)
      const item = list.body.data.items.find((i: { id: number }) => i.id === id)
      expect(item).toMatchObject({ balance: c.balance, balance_updated_time: row.balanceUpdatedTime })
      expect(JSON.stringify(list.body)).not.toContain('sk-live')
    })
  }

  test('a vendor without a balance endpoint is a 400 with a stable code; nothing is called', async () => {
    const id = await channel(14)
    vendor.seen.length = 0
    const res = await call(app, 'GET', `/api/channel/update_balance/${id}`, undefined, admin)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ success: false, data: { code: 'balance_unsupported' } })
    expect(vendor.seen).toHaveLength(0)
  })

  test('a refused key, or an answer past 256 KB, is a 502 balance_failed that names no key; the stored balance stays', async () => {
    const id = await channel(43, vendor.url, 'sk-dead')
    const res = await call(app, 'GET', `/api/channel/update_balance/${id}`, undefined, admin)
    expect(res.status).toBe(502)
    expect(res.body).toMatchObject({ success: false, data: { code: 'balance_failed' } })
    expect(JSON.stringify(res.body)).not.toContain('sk-dead')
    expect((await app.deps.repos.channels.findById(id))!.balanceUpdatedTime).toBe(0)
    const huge = await channel(1, `${vendor.url}/huge`)
    expect((await call(app, 'GET', `/api/channel/update_balance/${huge}`, undefined, admin)).status).toBe(502)
  })

  test('an unknown channel is a 404; a user is refused', async () => {
    expect((await call(app, 'GET', '/api/channel/update_balance/999999', undefined, admin)).status).toBe(404)
    expect((await call(app, 'GET', '/api/channel/update_balance/1', undefined, await userHeaders(app, 1))).status).toBe(403)
  })

  test('the call goes through the outbound guard: a channel saved when private networks were allowed is refused once they are not', async () => {
    const id = await channel(25)
    await app.deps.options.set('ChannelPrivateNetworksAllowed', false)
    try {
      vendor.seen.length = 0
      const res = await call(app, 'GET', `/api/channel/update_balance/${id}`, undefined, admin)
      expect(res.status).toBe(502)
      expect(vendor.seen).toHaveLength(0)
    } finally {
      await app.deps.options.set('ChannelPrivateNetworksAllowed', true)
    }
  })
})

test('GET /api/channel/update_balance: every enabled channel with an endpoint, failures counted, not thrown', async () => {
  const good = await channel(40)
  const bad = await channel(40, vendor.url, 'sk-dead')
  const disabled = await channel(25)
  await call(app, 'PUT', '/api/channel/', { id: disabled, status: 2 }, admin)
  const res = await call(app, 'GET', '/api/channel/update_balance', undefined, admin)
  expect(res.status).toBe(200)
  expect(res.body.success).toBe(true)
  expect(res.body.data.failed).toBeGreaterThanOrEqual(1)
  expect((await app.deps.repos.channels.findById(good))!.balance).toBe(3)
  expect((await app.deps.repos.channels.findById(bad))!.balanceUpdatedTime).toBe(0)
  expect((await app.deps.repos.channels.findById(disabled))!.balanceUpdatedTime).toBe(0)
})
