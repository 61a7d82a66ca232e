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
  expect(byModel['gpt-4o']).toMatchObject({ mode: 'ratio', input: 3.75, output: 15, cache_read: 1.875, model_ratio: 1.25, completion_ratio: 4 })
  expect(byModel['fixed-model']).toMatchObject({ mode: 'call', per_call: 0.075, model_price: 0.05 })
  expect(byModel['house-model']).toEqual({ model: 'house-model', priced: false, mode: 'none' })
})

test('anonymous callers get 401', async () => {
  expect((await call(env.app, 'GET', '/api/pricing')).status).toBe(401)
})
