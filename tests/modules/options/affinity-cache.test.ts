import { afterAll, beforeAll, expect, test } from 'bun:test'
import { addUser, as, login } from '../../helpers/accounts'
import { startRelayEnv, type RelayEnv } from '../../helpers/relay-env'
import { call } from '../../helpers/test-app'

let env: RelayEnv
let root: Record<string, string>

beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 1, models: 'gpt-4o,mock-model' })
  root = as(await login(env.app))
})
afterAll(() => env.stop())

const chat = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  env.app.fetch('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], ...body }),
  })
const stats = async () => (await call(env.app, 'GET', '/api/option/channel_affinity_cache', undefined, root)).body.data

test('root sees the pinned sessions per rule and clears one rule or all', async () => {
  expect((await chat({ prompt_cache_key: 'session-a' })).status).toBe(200)
  expect((await chat({ user: 'end-user-1' })).status).toBe(200)
  expect((await chat({}, { 'x-session-affinity': 'ses_1' })).status).toBe(200)
  const before = await stats()
  expect(before).toMatchObject({ enabled: true, total: 3, unknown: 0, cache_capacity: 100000, cache_algo: 'LRU', ttl_seconds: 3600 })
  expect(before.by_rule_name).toMatchObject({ 'prompt-cache-key': 1, 'openai-user': 1, opencode: 1, 'claude-code': 0, codex: 0 })

  const one = await call(env.app, 'DELETE', '/api/option/channel_affinity_cache?rule_name=openai-user', undefined, root)
  expect(one.body).toEqual({ success: true, message: '', data: { deleted: 1 } })
  expect((await stats()).total).toBe(2)
  const all = await call(env.app, 'DELETE', '/api/option/channel_affinity_cache?all=true', undefined, root)
  expect(all.body.data).toEqual({ deleted: 2 })
  expect((await stats()).total).toBe(0)
})

test('a clear without a rule, or with an unknown one, is a 400 with a stable code; only root may look or clear', async () => {
  const none = await call(env.app, 'DELETE', '/api/option/channel_affinity_cache', undefined, root)
  expect(none.status).toBe(400)
  expect(none.body).toMatchObject({ success: false, data: { code: 'missing_rule_name' } })
  const unknown = await call(env.app, 'DELETE', '/api/option/channel_affinity_cache?rule_name=bogus', undefined, root)
  expect(unknown.status).toBe(400)
  expect(unknown.body.data.code).toBe('unknown_rule')

  await addUser(env.app, { username: 'bob', quota: 0 })
  const bob = as(await login(env.app, 'bob'))
  expect((await call(env.app, 'GET', '/api/option/channel_affinity_cache', undefined, bob)).status).toBe(403)
  expect((await call(env.app, 'DELETE', '/api/option/channel_affinity_cache?all=true', undefined, bob)).status).toBe(403)
  expect((await call(env.app, 'GET', '/api/option/channel_affinity_cache')).status).toBe(401)
})

test('sessions are pinned for the models of model_regex, and per group as channel_affinity_setting.groups says', async () => {
  await call(env.app, 'DELETE', '/api/option/channel_affinity_cache?all=true', undefined, root)
  expect((await chat({ model: 'mock-model', prompt_cache_key: 'no-cache-model' })).status).toBe(200)
  expect((await stats()).total).toBe(0)

  const put = (key: string, value: unknown) => call(env.app, 'PUT', '/api/option/', { key, value }, root)
  expect((await put('channel_affinity_setting.groups', { default: true })).status).toBe(200)
  expect((await chat({ model: 'mock-model', prompt_cache_key: 'any-model-in-group' })).status).toBe(200)
  expect((await stats()).total).toBe(1)

  expect((await put('channel_affinity_setting.groups', { default: false })).status).toBe(200)
  expect((await chat({ prompt_cache_key: 'group-off' })).status).toBe(200)
  expect((await stats()).total).toBe(1)

  const bad = await put('channel_affinity_setting.model_regex', '(')
  expect(bad.status).toBe(400)
  expect((await put('channel_affinity_setting.groups', { default: 'yes' })).status).toBe(400)
})
