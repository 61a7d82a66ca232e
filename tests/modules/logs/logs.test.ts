import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { LogType } from '../../../src/db/repos'
import { Role } from '../../../src/db/repos/user-roles'
import { addUser, login } from '../../helpers/accounts'
import type { RelayEnv } from '../../helpers/relay-env'
import { call, startTestApp } from '../../helpers/test-app'
import { account, chat, chatBody, startMeteredEnv } from '../../metering/env'

/** Usage log rows and the /api/log queries over them. */
let env: RelayEnv
let admin: string
let alice: { id: number; key: string; cookie: string }
let bob: { id: number; key: string }
let channel: number

beforeAll(async () => {
  env = await startMeteredEnv()
  channel = await env.addChannel({ type: 1, models: 'gpt-4o,gpt-4o-mini', name: 'logs-ch' })
  await addUser(env.app, { username: 'boss', role: Role.admin })
  admin = await login(env.app, 'boss')
  const a = await account(env, 10_000_000)
  const b = await account(env, 10_000_000)
  alice = { id: a.user.id, key: a.key, cookie: await login(env.app, a.user.username) }
  bob = { id: b.user.id, key: b.key }
  env.upstream.setBehavior({ text: 'ok', usage: { input: 100, cacheRead: 20, output: 30, reasoning: 5 } })
  await chat(env, alice.key, chatBody('gpt-4o'), { headers: { authorization: `Bearer ${alice.key}`, 'content-type': 'application/json', 'x-forwarded-for': '1.2.3.4' } })
  await chat(env, alice.key, chatBody('gpt-4o-mini'))
  await chat(env, bob.key, chatBody('gpt-4o'))
  env.upstream.setBehavior({ error: { status: 500, message: 'down' } })
  await chat(env, bob.key, chatBody('gpt-4o-mini'))
})
afterAll(() => env.stop())

const get = (path: string, cookie: string) => call(env.app, 'GET', path, undefined, { cookie })

describe('one row per relay request', () => {
  test('every column the issue lists', async () => {
    const res = await get(`/api/log/?username=${encodeURIComponent((await env.app.deps.repos.users.findById(alice.id))!.username)}&model_name=gpt-4o`, admin)
    expect(res.status).toBe(200)
    expect(res.body.data.total).toBe(1)
    const row = res.body.data.items[0]
    expect(row).toMatchObject({
      type: LogType.consume,
      user_id: alice.id,
      token_name: 'test',
      model_name: 'gpt-4o',
      upstream_model: 'gpt-4o',
      channel,
      group: 'default',
      prompt_tokens: 120,
      completion_tokens: 30,
      cache_read_tokens: 20,
      cache_write_tokens: 0,
      reasoning_tokens: 5,
      quota: Math.round((100 + 20 * 0.5 + 30 * 4) * 1.25),
      is_stream: false,
      status_code: 200,
      ip: '127.0.0.1',
    })
    expect(row.request_id).toMatch(/^req_/)
    expect(row.use_time_ms).toBeGreaterThanOrEqual(0)
    expect(row.first_token_ms).toBeGreaterThanOrEqual(0)
    expect(row.other.attempts).toEqual([{ channelId: channel, status: 200 }])
    expect(row.other.price).toMatchObject({ mode: 'ratio', ratio: 1.25 })
  })

  test('a failed request is an error row with its retry path and no charge', async () => {
    const res = await get('/api/log/?type=5', admin)
    expect(res.body.data.total).toBe(1)
    expect(res.body.data.items[0]).toMatchObject({ type: 5, user_id: bob.id, quota: 0, status_code: 503, model_name: 'gpt-4o-mini' })
    expect(res.body.data.items[0].other.attempts.length).toBeGreaterThanOrEqual(1)
  })
})

describe('filters', () => {
  test('type, model, token name, channel, group, request id, time range; paged', async () => {
    const all = await get('/api/log/?page_size=2&p=1', admin)
    expect(all.body.data.total).toBe(4)
    expect(all.body.data.items).toHaveLength(2)
    expect((await get('/api/log/?page_size=2&p=2', admin)).body.data.items).toHaveLength(2)
    expect((await get('/api/log/?type=2', admin)).body.data.total).toBe(3)
    expect((await get('/api/log/?model_name=gpt-4o-mini', admin)).body.data.total).toBe(2)
    expect((await get('/api/log/?token_name=test', admin)).body.data.total).toBe(4)
    expect((await get('/api/log/?token_name=nope', admin)).body.data.total).toBe(0)
    expect((await get(`/api/log/?channel=${channel}`, admin)).body.data.total).toBe(4)
    expect((await get('/api/log/?group=default', admin)).body.data.total).toBe(4)
    const id = all.body.data.items[0].request_id
    expect((await get(`/api/log/?request_id=${id}`, admin)).body.data.items.map((r: any) => r.request_id)).toEqual([id])
    const now = Math.floor(Date.now() / 1000)
    expect((await get(`/api/log/?start_timestamp=${now - 60}&end_timestamp=${now + 60}`, admin)).body.data.total).toBe(4)
    expect((await get(`/api/log/?end_timestamp=${now - 3600}`, admin)).body.data.total).toBe(0)
    expect((await get('/api/log/?username=nobody', admin)).body.data.total).toBe(0)
  })

  test('bad filters are 400s naming the parameter, never 500s', async () => {
    for (const q of ['type=9', 'type=x', 'p=-1', 'page_size=1000', 'start_timestamp=abc', 'channel=-3', 'start_timestamp=10&end_timestamp=5']) {
      const res = await get(`/api/log/?${q}`, admin)
      expect(res.status).toBe(400)
      expect(res.body.success).toBe(false)
    }
  })
})

describe('own logs', () => {
  test('a user sees only their own rows, without channel, retry path or price', async () => {
    const res = await get('/api/log/self?username=boss', alice.cookie)
    expect(res.body.data.total).toBe(2)
    for (const row of res.body.data.items) {
      expect(row.user_id).toBe(alice.id)
      expect(row.channel).toBeUndefined()
      expect(row.other.attempts).toBeUndefined()
    }
  })
  test('stat: quota, requests and tokens of the filter, rpm and tpm of the last minute', async () => {
    const own = await get('/api/log/self/stat', alice.cookie)
    const perCall = Math.round((100 + 20 * 0.5 + 30 * 4) * 1.25)
    const mini = Math.round((100 + 20 * 0.5 + 30 * 4) * 0.075)
    expect(own.body.data).toEqual({ quota: perCall + mini, rpm: 2, tpm: 2 * 150, count: 2, tokens: 2 * 150 })
    const all = await get('/api/log/stat', admin)
    expect(all.body.data).toEqual({ quota: 2 * perCall + mini, rpm: 3, tpm: 3 * 150, count: 3, tokens: 3 * 150 })
    expect((await get('/api/log/stat?model_name=gpt-4o-mini', admin)).body.data.quota).toBe(mini)
  })
})

describe('token usage, authenticated by the key itself', () => {
  test('GET /api/usage/token/ gives the key its balance and usage', async () => {
    const limited = await env.newKey({ unlimited_quota: false, remain_quota: 5000, name: 'budget' }, (await env.app.deps.repos.users.findById(alice.id))!)
    env.upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    await chat(env, limited, chatBody('gpt-4o'))
    const res = await call(env.app, 'GET', '/api/usage/token/', undefined, { authorization: `Bearer ${limited}` })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ object: 'token_usage', name: 'budget', unlimited_quota: false, total_used: 63, total_available: 5000 - 63, total_granted: 5000 })
    const anonymous = await call(env.app, 'GET', '/api/usage/token/')
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.success).toBe(false)
  })
})

test('stopping the server writes every queued row', async () => {
  const app = await startTestApp()
  for (let i = 0; i < 5; i++) app.deps.metering.logs.push({ type: LogType.system, content: `row ${i}`, createdAt: 1 })
  expect(app.deps.metering.logs.pending).toBe(5)
  await app.deps.metering.stop() // what SIGTERM/SIGINT run before the database closes
  const rows = app.db.$client.query<{ content: string }, []>('SELECT content FROM logs WHERE type = 4 ORDER BY id').all()
  expect(rows.map((r) => r.content)).toEqual(['row 0', 'row 1', 'row 2', 'row 3', 'row 4'])
  await app.stop()
})
