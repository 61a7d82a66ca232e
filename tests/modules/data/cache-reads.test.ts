import { afterAll, beforeAll, expect, test } from 'bun:test'
import { addUser, as, login } from '../../helpers/accounts'
import { startRelayEnv, type RelayEnv } from '../../helpers/relay-env'
import { call } from '../../helpers/test-app'

/** The dashboard's cache figure: input tokens in the range and the part read from the upstream's prompt cache. */
let env: RelayEnv
let root: Record<string, string>

beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 1, models: 'gpt-4o' })
  root = as(await login(env.app))
})
afterAll(() => env.stop())

const chat = (key: string) =>
  env.app.fetch('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
  })

test('cache reads and their share of input: everyone for admins, their own for users; the log row carries them', async () => {
  env.upstream.setBehavior({ text: 'ok', usage: { input: 200, cacheRead: 800, output: 10 } })
  expect((await chat(env.key)).status).toBe(200)
  const bob = await addUser(env.app, { username: 'bob', quota: 10_000_000 })
  env.upstream.setBehavior({ text: 'ok', usage: { input: 1000, cacheRead: 0, output: 10 } })
  expect((await chat(await env.newKey({}, bob))).status).toBe(200)

  const all = await call(env.app, 'GET', '/api/data/cache_reads', undefined, root)
  expect(all.status).toBe(200)
  expect(all.body.data).toEqual({ prompt_tokens: 2000, cache_read_tokens: 800, cache_read_share: 0.4 })
  const alice = await call(env.app, 'GET', '/api/data/cache_reads?username=alice', undefined, root)
  expect(alice.body.data).toEqual({ prompt_tokens: 1000, cache_read_tokens: 800, cache_read_share: 0.8 })

  const bobSession = as(await login(env.app, 'bob'))
  const own = await call(env.app, 'GET', '/api/data/cache_reads/self', undefined, bobSession)
  expect(own.body.data).toEqual({ prompt_tokens: 1000, cache_read_tokens: 0, cache_read_share: 0 })
  expect((await call(env.app, 'GET', '/api/data/cache_reads', undefined, bobSession)).status).toBe(403)

  const logs = await call(env.app, 'GET', '/api/log/?p=1&page_size=10&username=alice', undefined, root)
  expect(logs.body.data.items[0]).toMatchObject({ prompt_tokens: 1000, cache_read_tokens: 800 })
})

test('a range the dashboard cannot ask for is a 400 in the envelope', async () => {
  const res = await call(env.app, 'GET', '/api/data/cache_reads?start_timestamp=100&end_timestamp=50', undefined, root)
  expect(res.status).toBe(400)
  expect(res.body).toMatchObject({ success: false, data: { code: 'invalid_request' } })
})
