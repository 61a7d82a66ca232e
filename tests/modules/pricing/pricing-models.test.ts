import { afterAll, beforeAll, expect, test } from 'bun:test'
import { addUser, login } from '../../helpers/accounts'
import type { RelayEnv } from '../../helpers/relay-env'
import { call } from '../../helpers/test-app'
import { startMeteredEnv } from '../../metering/env'

/** GET /api/pricing/models: the admin's price list, every channel's models at the base price with their channels. */
let env: RelayEnv
let adminCookie: string
let userCookie: string
let openaiId: number
let vipId: number
beforeAll(async () => {
  env = await startMeteredEnv()
  openaiId = await env.addChannel({ type: 1, name: 'main', models: 'gpt-4o,house-model' })
  vipId = await env.addChannel({ type: 14, name: 'vip-claude', models: 'claude-sonnet-4-5,gpt-4o', group: 'vip', status: 2 })
  await addUser(env.app, { username: 'boss', role: 10 })
  adminCookie = await login(env.app, 'boss')
  userCookie = await login(env.app, 'alice')
})
afterAll(() => env.stop())

test('every model of every channel (any group, any status) at group ratio 1, with its channels; option-only prices too', async () => {
  await env.app.deps.options.set('GroupRatio', { default: 1.5, vip: 0.8 })
  await env.app.deps.options.set('ModelPrice', { 'image-model': 0.04 })
  const res = await call(env.app, 'GET', '/api/pricing/models', undefined, { cookie: adminCookie })
  expect(res.status).toBe(200)
  const { data } = res.body
  expect(data).toMatchObject({ quota_per_unit: 500_000, self_use_mode: false, group_ratios: { default: 1.5, vip: 0.8 }, unpriced_models: ['house-model'] })
  const byModel = Object.fromEntries(data.items.map((i: { model: string }) => [i.model, i]))
  expect(Object.keys(byModel)).toEqual(['claude-sonnet-4-5', 'gpt-4o', 'house-model', 'image-model'])
  // the base price: the group ratio is not applied
  expect(byModel['gpt-4o']).toMatchObject({ priced: true, mode: 'ratio', input: 2.5, output: 10, model_ratio: 1.25, completion_ratio: 4 })
  expect(byModel['gpt-4o'].channels).toEqual([
    { id: openaiId, name: 'main', type: 1, status: 1 },
    { id: vipId, name: 'vip-claude', type: 14, status: 2 },
  ])
  expect(byModel['house-model']).toMatchObject({ priced: false, mode: 'none', channels: [{ id: openaiId }] })
  expect(byModel['image-model']).toMatchObject({ priced: true, mode: 'call', per_call: 0.04, model_price: 0.04, channels: [] })
})

test('admins only', async () => {
  expect((await call(env.app, 'GET', '/api/pricing/models', undefined, { cookie: userCookie })).status).toBe(403)
  expect((await call(env.app, 'GET', '/api/pricing/models')).status).toBe(401)
})
