import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { addUser, login } from '../../helpers/accounts'
import type { RelayEnv } from '../../helpers/relay-env'
import { call } from '../../helpers/test-app'
import { startMeteredEnv } from '../../metering/env'

/** PublicPricingEnabled opens GET /api/pricing to logged-out visitors; models without a price are flagged. */
let env: RelayEnv
let vipCookie: string
beforeAll(async () => {
  env = await startMeteredEnv()
  await env.addChannel({ type: 1, models: 'gpt-4o,house-model' })
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5,vip-house', group: 'vip' })
  await addUser(env.app, { username: 'gold', group: 'vip' })
  vipCookie = await login(env.app, 'gold')
})
afterAll(() => env.stop())
beforeEach(async () => {
  await env.app.deps.options.set('PublicPricingEnabled', false)
  await env.app.deps.options.set('SelfUseModeEnabled', false)
})

const pricing = (headers: Record<string, string> = {}) => call(env.app, 'GET', '/api/pricing', undefined, headers)

test('off (the default): anonymous callers get 401, a bad cookie too', async () => {
  expect(env.app.deps.options.get('PublicPricingEnabled')).toBe(false)
  const res = await pricing()
  expect(res.status).toBe(401)
  expect(res.body).toEqual({ success: false, message: expect.stringContaining('not logged in'), data: expect.objectContaining({ code: expect.any(String) }) })
  expect((await pricing({ cookie: 'tollgate_session=forged' })).status).toBe(401)
})

test('on: anonymous callers read the default group’s prices; unpriced models are flagged', async () => {
  await env.app.deps.options.set('PublicPricingEnabled', true)
  const res = await pricing()
  expect(res.status).toBe(200)
  const { data } = res.body
  expect(data).toMatchObject({ group: 'default', group_ratio: 1, unpriced_models: ['house-model'] })
  expect(data.items.map((i: { model: string }) => i.model)).toEqual(['gpt-4o', 'house-model'])
  expect(data.items[0]).toMatchObject({ model: 'gpt-4o', priced: true, mode: 'ratio', input: 2.5, output: 10 })
  expect(JSON.stringify(data)).not.toMatch(/model_ratio|completion_ratio|cache_ratio|model_price/) // no internal ratios for strangers
  expect(data.items[1]).toEqual({ model: 'house-model', priced: false, mode: 'none', group_prices: {} })
  // a stale or forged cookie is no error then: the visitor sees the public prices
  expect((await pricing({ cookie: 'tollgate_session=forged' })).body.data.group).toBe('default')
})

test('on: a logged-in user still sees their own group', async () => {
  await env.app.deps.options.set('PublicPricingEnabled', true)
  const res = await pricing({ cookie: vipCookie })
  expect(res.status).toBe(200)
  expect(res.body.data).toMatchObject({ group: 'vip', unpriced_models: ['vip-house'] })
  expect(res.body.data.items.map((i: { model: string }) => i.model)).toEqual(['claude-sonnet-4-5', 'vip-house'])
})

test('in self-use mode an unpriced model is free, and still flagged as unpriced', async () => {
  await env.app.deps.options.set('SelfUseModeEnabled', true)
  const res = await pricing({ cookie: vipCookie })
  expect(res.body.data.items[1]).toEqual({ model: 'vip-house', priced: false, mode: 'free', group_prices: {} })
  expect(res.body.data.unpriced_models).toEqual(['vip-house'])
})
