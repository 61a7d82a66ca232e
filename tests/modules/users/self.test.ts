import { afterAll, beforeAll, expect, test } from 'bun:test'
import { addUser, as, login, USER_PASSWORD } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
beforeAll(async () => (app = await startTestApp()))
afterAll(() => app.stop())

test('GET /api/user/self shows the account without secrets', async () => {
  const user = await addUser(app, { username: 'selfie', quota: 42, accessToken: 'f'.repeat(64) })
  const res = await call(app, 'GET', '/api/user/self', undefined, as(await login(app, 'selfie')))
  expect(res.status).toBe(200)
  expect(res.body.data).toMatchObject({ id: user.id, username: 'selfie', quota: 42, role: 1, group: 'default' })
  expect(res.body.data).not.toHaveProperty('password')
  expect(res.body.data).not.toHaveProperty('access_token')
  expect(JSON.stringify(res.body)).not.toMatch(/argon2|f{64}/)
})

test('PUT /api/user/self changes the display name', async () => {
  const user = await addUser(app, { username: 'renamer' })
  const res = await call(app, 'PUT', '/api/user/self', { display_name: 'New Name' }, as(await login(app, 'renamer')))
  expect(res.status).toBe(200)
  expect(res.body.data.display_name).toBe('New Name')
  expect((await app.deps.repos.users.findById(user.id))!.displayName).toBe('New Name')
  expect((await app.deps.repos.users.findById(user.id))!.sessionVersion).toBe(user.sessionVersion)
})

test('a password change needs the right original password and a valid new one', async () => {
  const user = await addUser(app, { username: 'careful' })
  const cookie = await login(app, 'careful')
  const missing = await call(app, 'PUT', '/api/user/self', { password: 'another-password' }, as(cookie))
  expect(missing.status).toBe(400)
  expect(missing.body.message).toContain('original_password')
  const wrong = await call(app, 'PUT', '/api/user/self', { password: 'another-password', original_password: 'not-it-at-all' }, as(cookie))
  expect(wrong.status).toBe(403)
  const short = await call(app, 'PUT', '/api/user/self', { password: 'short', original_password: USER_PASSWORD }, as(cookie))
  expect(short.status).toBe(400)
  expect(short.body.message).toContain('password')
  const row = (await app.deps.repos.users.findById(user.id))!
  expect(await Bun.password.verify(USER_PASSWORD, row.password)).toBe(true)
  expect(row.sessionVersion).toBe(user.sessionVersion)
  // "" means unchanged, as new-api's form sends it
  expect((await call(app, 'PUT', '/api/user/self', { password: '', display_name: 'x' }, as(cookie))).status).toBe(200)
})

test('GET /api/user/aff creates a stable unique invite code', async () => {
  await addUser(app, { username: 'affa' })
  await addUser(app, { username: 'affb' })
  const a = as(await login(app, 'affa'))
  const first = await call(app, 'GET', '/api/user/aff', undefined, a)
  expect(first.status).toBe(200)
  expect(first.body.data).toMatch(/^[A-Za-z0-9]{4,}$/)
  expect((await call(app, 'GET', '/api/user/aff', undefined, a)).body.data).toBe(first.body.data)
  expect((await app.deps.repos.users.findByUsername('affa'))!.affCode).toBe(first.body.data)
  const other = await call(app, 'GET', '/api/user/aff', undefined, as(await login(app, 'affb')))
  expect(other.body.data).not.toBe(first.body.data)
})

test('aff_transfer moves invitation quota and refuses bad amounts', async () => {
  const user = await addUser(app, { username: 'earner', affQuota: 2_000_000, quota: 10 })
  const cookie = await login(app, 'earner')
  const res = await call(app, 'POST', '/api/user/aff_transfer', { quota: 600_000 }, as(cookie))
  expect(res.status).toBe(200)
  expect(res.body.data).toEqual({ quota_moved: 600_000, quota: 600_010, aff_quota: 1_400_000 })
  expect(res.body.message).toContain('600000')
  const row = (await app.deps.repos.users.findById(user.id))!
  expect([row.quota, row.affQuota]).toEqual([600_010, 1_400_000])

  const tooSmall = await call(app, 'POST', '/api/user/aff_transfer', { quota: 499_999 }, as(cookie))
  expect(tooSmall.status).toBe(400)
  expect(tooSmall.body.message).toContain('quota')
  const tooBig = await call(app, 'POST', '/api/user/aff_transfer', { quota: 1_400_001 }, as(cookie))
  expect(tooBig.status).toBe(400)
  expect(tooBig.body.message).toContain('1400000')
  expect((await call(app, 'POST', '/api/user/aff_transfer', { quota: 500_000.5 }, as(cookie))).status).toBe(400)
  expect((await call(app, 'POST', '/api/user/aff_transfer', { quota: '600000x' }, as(cookie))).status).toBe(400)
  expect((await call(app, 'POST', '/api/user/aff_transfer', {}, as(cookie))).status).toBe(400)
  expect((await app.deps.repos.users.findById(user.id))!.affQuota).toBe(1_400_000)
})

test('20 parallel aff_transfers never overdraw', async () => {
  const user = await addUser(app, { username: 'greedy', affQuota: 5_000_000 })
  const cookie = await login(app, 'greedy')
  const results = await Promise.all(
    Array.from({ length: 20 }, () => call(app, 'POST', '/api/user/aff_transfer', { quota: 700_000 }, as(cookie))),
  )
  const moved = results.filter((r) => r.status === 200).reduce((sum, r) => sum + r.body.data.quota_moved, 0)
  expect(results.filter((r) => r.status === 200)).toHaveLength(7)
  expect(results.filter((r) => r.status === 400)).toHaveLength(13)
  expect(moved).toBe(4_900_000)
  const row = (await app.deps.repos.users.findById(user.id))!
  expect(row.affQuota).toBe(100_000)
  expect(row.quota).toBe(moved)
  const disk = app.db.$client.query('SELECT quota, aff_quota FROM users WHERE id = ?').get(user.id)
  expect(disk).toEqual({ quota: 4_900_000, aff_quota: 100_000 })
})
