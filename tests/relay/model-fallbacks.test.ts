import { afterAll, beforeAll, expect, test } from 'bun:test'
import { as, login } from '../helpers/accounts'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'
import { call } from '../helpers/test-app'

/**
 * ModelFallbacks: a model with no channel left is served by its first fallback the token may use and a channel
 * serves; billed at the fallback's price, logged with both names; a group's own list replaces the global one.
 */
let env: RelayEnv
let root: Record<string, string>

beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 1, models: 'gpt-5-mini,claude-sonnet-4-5' })
  // per-call prices (US$): quota = price × QuotaPerUnit (500,000)
  await env.app.deps.options.set('ModelPrice', { 'gpt-5': 0.01, 'gpt-5-mini': 0.002, 'claude-sonnet-4-5': 0.004 })
  root = as(await login(env.app))
})
afterAll(() => env.stop())

const chat = (model: string, key = env.key) =>
  env.app.fetch('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  })
const setOption = (key: string, value: unknown) => call(env.app, 'PUT', '/api/option/', { key, value }, root)
const lastLog = async () => (await call(env.app, 'GET', '/api/log/?p=1&page_size=1', undefined, root)).body.data.items[0]

test('gpt-5 without a channel is served by gpt-5-mini: sent as it, billed at its price, logged with both names', async () => {
  expect((await chat('gpt-5')).status).toBe(404) // no fallback yet
  expect((await setOption('ModelFallbacks', { 'gpt-5': ['no-channel-model', 'gpt-5-mini'] })).status).toBe(200)
  env.upstream.reset()
  const res = await chat('gpt-5')
  expect(res.status).toBe(200)
  await res.text()
  expect(env.upstream.requests.map((r) => r.model)).toEqual(['gpt-5-mini'])
  expect(env.outcomes.at(-1)).toMatchObject({ model: 'gpt-5-mini', requestedModel: 'gpt-5', ok: true })
  const row = await lastLog()
  expect(row.model_name).toBe('gpt-5-mini')
  expect(row.quota).toBe(1000)
  expect(row.other.requested_model).toBe('gpt-5')
})

test('a fallback the token may not use is skipped; with none left the refusal names the model asked for', async () => {
  const limited = await env.newKey({ model_limits_enabled: true, model_limits: 'gpt-5' })
  const res = await chat('gpt-5', limited)
  expect(res.status).toBe(404)
  const body = (await res.json()) as { error: { message: string; code: string } }
  expect(body.error.code).toBe('model_not_found')
  expect(body.error.message).toContain('"gpt-5"')
})

test("a group's own list replaces ModelFallbacks' entry; a model with a channel never falls back", async () => {
  expect((await setOption('GroupModelFallbacks', { default: { 'gpt-5': ['claude-sonnet-4-5'] } })).status).toBe(200)
  env.upstream.reset()
  expect((await chat('gpt-5')).status).toBe(200)
  expect(env.upstream.requests.map((r) => r.model)).toEqual(['claude-sonnet-4-5'])
  expect((await lastLog()).quota).toBe(2000)

  env.upstream.reset()
  expect((await setOption('ModelFallbacks', { 'gpt-5-mini': ['claude-sonnet-4-5'] })).status).toBe(200)
  expect((await chat('gpt-5-mini')).status).toBe(200)
  expect(env.upstream.requests.map((r) => r.model)).toEqual(['gpt-5-mini'])
})

test('bad fallback tables are a 400 naming the problem', async () => {
  for (const value of [{ 'gpt-5': [] }, { 'gpt-5': ['gpt-5'] }, { 'gpt-5': ['a', 'a'] }, { 'gpt-5': 'gpt-5-mini' }]) {
    const res = await setOption('ModelFallbacks', value)
    expect(res.status, JSON.stringify(value)).toBe(400)
  }
  expect((await setOption('GroupModelFallbacks', { vip: { 'gpt-5': [3] } })).status).toBe(400)
})
