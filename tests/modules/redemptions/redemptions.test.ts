import { afterAll, beforeAll, describe, expect, setSystemTime, test } from 'bun:test'
import { Role } from '../../../src/db/repos/user-roles'
import { addUser, login } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
let admin: string
let user: string
let userId: number

beforeAll(async () => {
  app = await startTestApp()
  await addUser(app, { username: 'boss', role: Role.admin })
  userId = (await addUser(app, { username: 'carol', quota: 1000 })).id
  admin = await login(app, 'boss')
  user = await login(app, 'carol')
})
afterAll(() => app.stop())

const as = (cookie: string) => ({ cookie })
const create = (body: unknown) => call(app, 'POST', '/api/redemption/', body, as(admin))
const topup = (key: string, cookie = user) => call(app, 'POST', '/api/user/topup', { key }, as(cookie))
const balance = async () => (app.deps.repos.users.forget(userId), (await app.deps.repos.users.findById(userId))!.quota)

describe('admin CRUD', () => {
  test('create 1–100 codes at once; the codes are shown only on creation', async () => {
    const res = await create({ name: 'promo', count: 3, quota: 500 })
    expect(res.status).toBe(200)
    expect(res.body.data.keys).toHaveLength(3)
    for (const key of res.body.data.keys) expect(key).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(new Set(res.body.data.keys).size).toBe(3)
    const listed = await call(app, 'GET', '/api/redemption/?keyword=promo', undefined, as(admin))
    expect(listed.body.data.total).toBe(3)
    for (const item of listed.body.data.items) {
      expect(res.body.data.keys).not.toContain(item.key)
      expect(item.key).toContain('*')
      expect(item).toMatchObject({ name: 'promo', quota: 500, status: 1 })
    }
    expect(app.db.$client.query('SELECT count(*) AS n FROM redemptions WHERE key_hash LIKE ?').get(`%${res.body.data.keys[0]}%`)).toEqual({ n: 0 })
  })

  test('count and quota are bounded; bad input is a 400 naming the field', async () => {
    for (const body of [{ name: 'x', count: 101, quota: 1 }, { name: 'x', count: 0, quota: 1 }, { name: 'x', quota: 0 }, { name: '', quota: 1 }, { name: 'x', quota: 1, expired_time: 5 }]) {
      const res = await create(body)
      expect(res.status).toBe(400)
      expect(res.body.success).toBe(false)
    }
    expect((await create({ name: 'x', count: 100, quota: 1 })).body.data.keys).toHaveLength(100)
  })

  test('search, get, edit, disable, delete', async () => {
    const { body } = await create({ name: 'edit-me', quota: 10 })
    const id = body.data.items[0].id
    expect((await call(app, 'GET', `/api/redemption/search?keyword=${id}`, undefined, as(admin))).body.data.items[0].id).toBe(id)
    expect((await call(app, 'GET', `/api/redemption/${id}`, undefined, as(admin))).body.data.name).toBe('edit-me')
    const edited = await call(app, 'PUT', '/api/redemption/', { id, name: 'edited', quota: 20, status: 2 }, as(admin))
    expect(edited.body.data).toMatchObject({ name: 'edited', quota: 20, status: 2 })
    expect((await topup(body.data.keys[0])).status).toBe(400) // disabled
    expect((await call(app, 'DELETE', `/api/redemption/${id}`, undefined, as(admin))).status).toBe(200)
    expect((await call(app, 'GET', `/api/redemption/${id}`, undefined, as(admin))).status).toBe(404)
    expect((await call(app, 'DELETE', `/api/redemption/${id}`, undefined, as(admin))).status).toBe(404)
  })

  test('DELETE /api/redemption/invalid removes used, disabled and expired codes only', async () => {
    const used = (await create({ name: 'inv-used', quota: 1 })).body.data
    const live = (await create({ name: 'inv-live', quota: 1 })).body.data
    const soon = (await create({ name: 'inv-soon', quota: 1, expired_time: Math.floor(Date.now() / 1000) + 1 })).body.data
    await topup(used.keys[0])
    setSystemTime(new Date(Date.now() + 2000)) // the clock moved past `soon`'s expiry, instead of waiting for it
    try {
      expect((await topup(soon.keys[0])).status).toBe(400) // expired
      await call(app, 'DELETE', '/api/redemption/invalid', undefined, as(admin))
    } finally {
      setSystemTime()
    }
    const left = (await call(app, 'GET', '/api/redemption/?keyword=inv-&page_size=100', undefined, as(admin))).body.data.items.map((i: any) => i.id)
    expect(left).toEqual([live.items[0].id])
  })
})

describe('top-up', () => {
  test('redeems once: quota added, a top-up log row written, a second try refused', async () => {
    const { keys } = (await create({ name: 'once', quota: 700 })).body.data
    const before = await balance()
    const res = await topup(keys[0])
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ quota: 700, balance: before + 700 })
    expect(await balance()).toBe(before + 700)
    const again = await topup(keys[0])
    expect(again.status).toBe(400)
    expect(again.body.message).toContain('already used')
    expect(await balance()).toBe(before + 700)
    const logs = (await call(app, 'GET', '/api/log/self?type=1', undefined, as(user))).body.data.items
    expect(logs[0]).toMatchObject({ type: 1, quota: 700, user_id: userId })
    expect(logs[0].content).toContain('once')
    const code = (await call(app, 'GET', '/api/redemption/?keyword=once', undefined, as(admin))).body.data.items[0]
    expect(code).toMatchObject({ status: 3, used_user_id: userId })
    expect(code.redeemed_time).toBeGreaterThan(0)
    expect((await call(app, 'PUT', '/api/redemption/', { id: code.id, quota: 5 }, as(admin))).status).toBe(409)
  })

  test('50 simultaneous redemptions of one code by 10 users: exactly one wins', async () => {
    const { keys } = (await create({ name: 'race', quota: 10_000 })).body.data
    const racers: { id: number; cookie: string }[] = []
    for (let i = 0; i < 10; i++) {
      const row = await addUser(app, { username: `racer${i}` })
      racers.push({ id: row.id, cookie: await login(app, `racer${i}`) })
    }
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => topup(keys[0], racers[i % 10]!.cookie)))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => r.status === 400)).toHaveLength(49)
    const credited = await Promise.all(racers.map(async (r) => (app.deps.repos.users.forget(r.id), (await app.deps.repos.users.findById(r.id))!.quota)))
    expect(credited.filter((q) => q === 10_000)).toHaveLength(1)
    expect(credited.reduce((a, b) => a + b, 0)).toBe(10_000)
    const topups = app.db.$client.query("SELECT count(*) AS n FROM logs WHERE type = 1 AND content LIKE '%(race)%'").get() as { n: number }
    expect(topups.n).toBe(1)
  })

  test('an unknown or malformed code is a 400; an empty body names the field', async () => {
    expect((await topup('nope')).status).toBe(400)
    const res = await call(app, 'POST', '/api/user/topup', {}, as(user))
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('key')
  })
})
