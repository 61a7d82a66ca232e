import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sha256 } from '../../../src/crypto/sha256'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { makeUser, type TestUser } from './users'

let app: TestApp
let alice: TestUser
let bob: TestUser
beforeAll(async () => {
  app = await startTestApp()
  alice = await makeUser(app, 'alice')
  bob = await makeUser(app, 'bob')
})
afterAll(() => app.stop())

const row = (id: number) => app.deps.repos.tokens.findById(id)

test('routes need a login', async () => {
  const res = await call(app, 'GET', '/api/token/')
  expect(res.status).toBe(401)
  expect(res.body).toEqual({ success: false, message: expect.stringContaining('not logged in'), data: expect.objectContaining({ code: expect.any(String) }) })
})

test('create returns the full key once and stores only its sha-256 and hint', async () => {
  const res = await call(app, 'POST', '/api/token/', { name: 'laptop', remain_quota: 5000, expired_time: -1 }, alice.headers)
  expect(res.status).toBe(200)
  expect(res.body.success).toBe(true)
  const data = res.body.data
  expect(data.key).toMatch(/^sk-[A-Za-z0-9]{48}$/)
  expect(data).toMatchObject({ user_id: alice.user.id, name: 'laptop', status: 1, remain_quota: 5000, unlimited_quota: false, expired_time: -1, group: '' })
  expect(data.key_hash).toBeUndefined()
  expect(Object.keys(data).sort()).toEqual(
    ['id', 'user_id', 'key', 'name', 'status', 'created_time', 'accessed_time', 'expired_time', 'remain_quota', 'unlimited_quota', 'used_quota', 'model_limits_enabled', 'model_limits', 'allow_ips', 'group'].sort(),
  )

  const body = data.key.slice(3)
  const stored = (await row(data.id))!
  expect(stored.keyHash).toBe(sha256(body))
  expect(stored.keyHint).toBe(body.slice(0, 4) + body.slice(-4))
  const raw = app.db.$client.query('SELECT * FROM tokens WHERE id = ?').get(data.id) as Record<string, unknown>
  expect(JSON.stringify(raw)).not.toContain(body)

  // afterwards the key is only ever masked
  const again = await call(app, 'GET', `/api/token/${data.id}`, undefined, alice.headers)
  expect(again.status).toBe(200)
  expect(again.body.data.key).toBe(`sk-${body.slice(0, 4)}**********${body.slice(-4)}`)
  expect(again.body.data.key_hash).toBeUndefined()
})

test('keys are distinct and use the whole alphabet', async () => {
  const keys = new Set<string>()
  for (let i = 0; i < 5; i++) {
    const res = await call(app, 'POST', '/api/token/', { name: `k${i}` }, bob.headers)
    expect(res.status).toBe(200)
    keys.add(res.body.data.key)
  }
  expect(keys.size).toBe(5)
  const chars = [...keys].map((key) => key.slice(3)).join('')
  expect(chars).toMatch(/[a-z]/)
  expect(chars).toMatch(/[A-Z]/)
  expect(chars).toMatch(/[0-9]/)
})

test('list is paged, masked, newest first and only the caller’s', async () => {
  const user = await makeUser(app, 'lister')
  for (let i = 1; i <= 3; i++) await call(app, 'POST', '/api/token/', { name: `t${i}` }, user.headers)
  const first = await call(app, 'GET', '/api/token/?p=1&page_size=2', undefined, user.headers)
  expect(first.status).toBe(200)
  expect(first.body.data).toMatchObject({ total: 3, page: 1, page_size: 2 })
  expect(first.body.data.items.map((t: any) => t.name)).toEqual(['t3', 't2'])
  for (const item of first.body.data.items) {
    expect(item.key).toMatch(/^sk-[A-Za-z0-9]{4}\*{10}[A-Za-z0-9]{4}$/)
    expect(item.user_id).toBe(user.user.id)
    expect(item.key_hash).toBeUndefined()
  }
  const second = await call(app, 'GET', '/api/token/?p=2&page_size=2', undefined, user.headers)
  expect(second.body.data.items.map((t: any) => t.name)).toEqual(['t1'])

  const search = await call(app, 'GET', '/api/token/search?keyword=t2', undefined, user.headers)
  expect(search.status).toBe(200)
  expect(search.body.data.total).toBe(1)
  expect(search.body.data.items[0].name).toBe('t2')
})

test('get, edit and delete one token', async () => {
  const created = await call(app, 'POST', '/api/token/', { name: 'edit-me', remain_quota: 10 }, alice.headers)
  const id = created.body.data.id

  const edited = await call(
    app,
    'PUT',
    '/api/token/',
    { id, name: 'edited', remain_quota: 99, unlimited_quota: true, model_limits_enabled: true, model_limits: 'gpt-4o, claude-sonnet-4 ,gpt-4o,', allow_ips: '10.0.0.0/8\n2001:db8::/32, 192.168.1.7' },
    alice.headers,
  )
  expect(edited.status).toBe(200)
  expect(edited.body.data).toMatchObject({
    id,
    name: 'edited',
    remain_quota: 99,
    unlimited_quota: true,
    model_limits_enabled: true,
    model_limits: 'gpt-4o,claude-sonnet-4',
    allow_ips: '10.0.0.0/8\n2001:db8::/32\n192.168.1.7',
  })
  expect(await row(id)).toMatchObject({ name: 'edited', remainQuota: 99, unlimitedQuota: true, modelLimits: 'gpt-4o,claude-sonnet-4' })

  // fields left out stay as they were
  const partial = await call(app, 'PUT', '/api/token/', { id, name: 'renamed' }, alice.headers)
  expect(partial.body.data).toMatchObject({ name: 'renamed', remain_quota: 99, unlimited_quota: true })

  const del = await call(app, 'DELETE', `/api/token/${id}`, undefined, alice.headers)
  expect(del.status).toBe(200)
  expect(del.body).toEqual({ success: true, message: '', data: null })
  expect(await row(id)).toBeUndefined()
  const gone = await call(app, 'GET', `/api/token/${id}`, undefined, alice.headers)
  expect(gone.status).toBe(404)
})

test('batch delete removes only the caller’s tokens and says how many', async () => {
  const mine = []
  for (let i = 0; i < 3; i++) mine.push((await call(app, 'POST', '/api/token/', { name: `b${i}` }, alice.headers)).body.data.id)
  const theirs = (await call(app, 'POST', '/api/token/', { name: 'bob-keeps' }, bob.headers)).body.data.id
  const res = await call(app, 'POST', '/api/token/batch', { ids: [...mine, theirs, 999999] }, alice.headers)
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ success: true, message: '', data: 3 })
  for (const id of mine) expect(await row(id)).toBeUndefined()
  expect(await row(theirs)).toBeDefined()
})

test('another user’s token is a 404 for every route and stays untouched', async () => {
  const created = await call(app, 'POST', '/api/token/', { name: 'bob-private', remain_quota: 7 }, bob.headers)
  const id = created.body.data.id
  const before = await row(id)

  for (const [method, path, body] of [
    ['GET', `/api/token/${id}`, undefined],
    ['PUT', '/api/token/', { id, name: 'stolen' }],
    ['PUT', '/api/token/?status_only=1', { id, status: 2 }],
    ['DELETE', `/api/token/${id}`, undefined],
  ] as const) {
    const res = await call(app, method, path, body, alice.headers)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ success: false, message: `token ${id} not found`, data: expect.objectContaining({ code: expect.any(String) }) })
  }
  const list = await call(app, 'GET', '/api/token/?page_size=100', undefined, alice.headers)
  expect(list.body.data.items.some((t: any) => t.id === id)).toBe(false)
  const search = await call(app, 'GET', '/api/token/search?keyword=bob-private', undefined, alice.headers)
  expect(search.body.data.total).toBe(0)
  expect(await row(id)).toEqual(before)
})
