import { afterAll, beforeAll, expect, test } from 'bun:test'
import { login } from '../../helpers/accounts'
import type { RelayEnv } from '../../helpers/relay-env'
import { call } from '../../helpers/test-app'
import { startMeteredEnv } from '../../metering/env'

/** The pricing routes show a tiered price as its tiers in US$: money for everyone, the ratios for admins only. */
let env: RelayEnv
let cookie: string
beforeAll(async () => {
  env = await startMeteredEnv()
  await env.addChannel({ type: 1, models: 'gemini-long' })
  await env.addChannel({ type: 1, models: 'gemini-long', group: 'vip' })
  await env.app.deps.options.set('GroupRatio', { default: 1, vip: 0.5 })
  await env.app.deps.options.set('CacheRatio', { 'gemini-long': 0.25 })
  await env.app.deps.options.set('ModelTierPricing', {
    'gemini-long': {
      enabled: true,
      basis: 'prompt_tokens',
      tiers: [
        { min_tokens: 0, max_tokens: 200000, input_price: 1.25, completion_price: 10, cache_read_price: 0.125 },
        { min_tokens: 200000, input_price: 2.5, completion_price: 15 },
      ],
    },
  })
  cookie = await login(env.app, 'alice')
})
afterAll(() => env.stop())

const FIRST = { min_tokens: 0, max_tokens: 200000, input: 1.25, output: 10, cache_read: 0.125 }
// no cache_read_price: CacheRatio (0.25) of the tier's input
const SECOND = { min_tokens: 200000, input: 2.5, output: 15, cache_read: 0.625 }

test('GET /api/pricing: each tier in US$ per 1M tokens, per group, without ratios', async () => {
  const { data } = (await call(env.app, 'GET', '/api/pricing', undefined, { cookie })).body
  const item = data.items.find((i: any) => i.model === 'gemini-long')
  expect(item).toMatchObject({ mode: 'ratio', input: 1.25, output: 10, tiers: [FIRST, SECOND] })
  expect(item.tiers[1].max_tokens).toBeUndefined()
  expect(item.group_prices.vip.tiers).toMatchObject([{ min_tokens: 0, input: 0.625, output: 5 }, { min_tokens: 200000, input: 1.25, output: 7.5 }])
  expect(JSON.stringify(item)).not.toMatch(/_ratio|tier_pricing|input_price/)
})

test('GET /api/pricing/models (admin): the tiers at the base price, the model listed though no ModelRatio names it', async () => {
  const root = await login(env.app)
  const { data } = (await call(env.app, 'GET', '/api/pricing/models', undefined, { cookie: root })).body
  const item = data.items.find((i: any) => i.model === 'gemini-long')
  expect(item).toMatchObject({ priced: true, mode: 'ratio', tiers: [FIRST, SECOND], model_ratio: 0.625 })
  expect(data.unpriced_models).not.toContain('gemini-long')
})
