import { afterAll, beforeAll, expect, test } from 'bun:test'
import { login } from '../../helpers/accounts'
import type { RelayEnv } from '../../helpers/relay-env'
import { call } from '../../helpers/test-app'
import { startMeteredEnv } from '../../metering/env'

let env: RelayEnv
let cookie: string
beforeAll(async () => {
  env = await startMeteredEnv()
  await env.addChannel({ type: 1, models: 'gpt-4o,house-model,fixed-model' })
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5', group: 'vip' })
  cookie = await login(env.app, 'alice')
})
afterAll(() => env.stop())

test('GET /api/pricing lists the models of the caller’s group with US$ prices', async () => {
  await env.app.deps.options.set('ModelPrice', { 'fixed-model': 0.05 })
  await env.app.deps.options.set('GroupRatio', { default: 1.5 })
  const res = await call(env.app, 'GET', '/api/pricing', undefined, { cookie })
  expect(res.status).toBe(200)
  const { data } = res.body
  expect(data).toMatchObject({ group: 'default', group_ratio: 1.5, quota_per_unit: 500_000, self_use_mode: false })
  const byModel = Object.fromEntries(data.items.map((i: any) => [i.model, i]))
  expect(Object.keys(byModel)).toEqual(['fixed-model', 'gpt-4o', 'house-model']) // not the vip channel's model
  // gpt-4o: $2.50 / $10 / $1.25 per 1M, × group 1.5
  expect(byModel['gpt-4o']).toMatchObject({ mode: 'ratio', input: 3.75, output: 15, cache_read: 1.875 })
  expect(byModel['fixed-model']).toMatchObject({ mode: 'call', per_call: 0.075 })
  expect(byModel['house-model']).toEqual({ model: 'house-model', priced: false, mode: 'none', group_prices: {} })
  // money only: the ratios behind the prices are the admin's (GET /api/pricing/models)
  for (const item of data.items) for (const key of ['model_ratio', 'completion_ratio', 'cache_ratio', 'create_cache_ratio', 'model_price']) expect(item[key]).toBeUndefined()
})

test('per-group prices: every group an enabled channel serves the model to, in US$, the caller’s group first', async () => {
  await env.app.deps.options.set('GroupRatio', { default: 1, vip: 0.5 })
  await env.addChannel({ type: 1, models: 'gpt-4o', group: 'vip' })
  const { data } = (await call(env.app, 'GET', '/api/pricing', undefined, { cookie })).body
  expect(data.groups).toEqual(['default', 'vip'])
  const gpt = data.items.find((i: any) => i.model === 'gpt-4o')
  expect(gpt.group_prices).toEqual({
    default: { mode: 'ratio', input: 2.5, output: 10, cache_read: 1.25, cache_write: expect.any(Number) },
    vip: { mode: 'ratio', input: 1.25, output: 5, cache_read: 0.625, cache_write: expect.any(Number) },
  })
  expect(data.items.map((i: any) => i.model)).not.toContain('claude-sonnet-4-5') // served to vip only: not the caller's group
})

test('anonymous callers get 401', async () => {
  expect((await call(env.app, 'GET', '/api/pricing')).status).toBe(401)
})
