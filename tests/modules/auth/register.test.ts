import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Role } from '../../../src/db/repos/user-roles'
import { addUser, login } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
beforeAll(async () => (app = await startTestApp()))
afterAll(() => app.stop())

const enable = (on: boolean) => app.deps.options.set('RegisterEnabled', on)

test('registration is refused with 403 while RegisterEnabled is false', async () => {
  await enable(false)
  const res = await call(app, 'POST', '/api/user/register', { username: 'newbie', password: 'newbie-password' })
  expect(res.status).toBe(403)
  expect(res.body).toEqual({ success: false, message: 'registration is disabled on this instance', data: expect.objectContaining({ code: expect.any(String) }) })
  expect(await app.deps.repos.users.findByUsername('newbie')).toBeUndefined()
})

test('registration creates a common user with QuotaForNewUser who can log in', async () => {
  await enable(true)
  await app.deps.options.set('QuotaForNewUser', 1234)
  const res = await call(app, 'POST', '/api/user/register', { username: 'newbie', password: 'newbie-password' })
  expect(res.status).toBe(200)
  expect(res.body.success).toBe(true)
  expect(res.body.data).toMatchObject({ username: 'newbie', role: Role.user, quota: 1234, inviter_id: 0 })
  expect(res.body.data).not.toHaveProperty('password')
  const row = (await app.deps.repos.users.findByUsername('newbie'))!
  expect(row.role).toBe(Role.user)
  expect(row.quota).toBe(1234)
  expect(row.password).toStartWith('$argon2id$')
  await login(app, 'newbie', 'newbie-password')
})

test('an invite code credits inviter and invitee in one go', async () => {
  await enable(true)
  await app.deps.options.set('QuotaForNewUser', 100)
  await app.deps.options.set('QuotaForInviter', 7000)
  await app.deps.options.set('QuotaForInvitee', 300)
  const inviter = await addUser(app, { username: 'inviter', affCode: 'INVITE1', affQuota: 5, affHistoryQuota: 5, affCount: 2 })

  const res = await call(app, 'POST', '/api/user/register', { username: 'invitee', password: 'invitee-password', aff_code: 'INVITE1' })
  expect(res.status).toBe(200)
  const invitee = (await app.deps.repos.users.findByUsername('invitee'))!
  expect(invitee.inviterId).toBe(inviter.id)
  expect(invitee.quota).toBe(400)
  const after = (await app.deps.repos.users.findById(inviter.id))!
  expect(after.affCount).toBe(3)
  expect(after.affQuota).toBe(7005)
  expect(after.affHistoryQuota).toBe(7005)
  expect(after.quota).toBe(inviter.quota)
})

test('an unknown invite code is 400 and creates nobody', async () => {
  await enable(true)
  const res = await call(app, 'POST', '/api/user/register', { username: 'lost', password: 'lost-password', aff_code: 'NOPE' })
  expect(res.status).toBe(400)
  expect(res.body.message).toContain('aff_code')
  expect(await app.deps.repos.users.findByUsername('lost')).toBeUndefined()
})

test('a taken username is 409', async () => {
  await enable(true)
  const res = await call(app, 'POST', '/api/user/register', { username: 'root', password: 'whatever-password' })
  expect(res.status).toBe(409)
  expect(res.body.success).toBe(false)
})

test('parallel registrations of one name create one user', async () => {
  await enable(true)
  const results = await Promise.all(
    Array.from({ length: 5 }, () => call(app, 'POST', '/api/user/register', { username: 'racer', password: 'racer-password' })),
  )
  expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  expect(results.filter((r) => r.status === 409)).toHaveLength(4)
})

test('bad registration input is 400 naming the field', async () => {
  await enable(true)
  const short = await call(app, 'POST', '/api/user/register', { username: 'shorty', password: 'short' })
  expect(short.status).toBe(400)
  expect(short.body.message).toContain('password')
  const name = await call(app, 'POST', '/api/user/register', { username: 'way-too-long-username-here', password: 'long-enough-password' })
  expect(name.status).toBe(400)
  expect(name.body.message).toContain('username')
  expect((await call(app, 'POST', '/api/user/register', { username: ['x'], password: 'long-enough-password' })).status).toBe(400)
})
