import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Role, UserStatus } from '../../../src/db/repos/user-roles'
import { addUser, as, login, USER_PASSWORD } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
let root: Record<string, string>
let admin: Record<string, string>
let adminId: number

beforeAll(async () => {
  app = await startTestApp()
  root = as(await login(app))
  adminId = (await addUser(app, { username: 'boss', role: Role.admin })).id
  admin = as(await login(app, 'boss'))
})
afterAll(() => app.stop())

const manage = (body: unknown, who = admin) => call(app, 'POST', '/api/user/manage', body, who)
const row = async (id: number) => (await app.deps.repos.users.findById(id))!

test('disable locks the user out at once, also from relay tokens; enable lets them log in again, old sessions stay ended', async () => {
  const user = await addUser(app, { username: 'switch' })
  const session = as(await login(app, 'switch'))
  app.db.$client.run("INSERT INTO tokens (user_id, key_hash, key_hint) VALUES (?, 'switchhash', 'sk-s...s')", [user.id])
  expect(await app.deps.repos.tokens.findByKeyHash('switchhash')).toBeDefined() // cached now
  let forgotten: number | undefined
  const original = app.deps.repos.tokens.forgetUser
  app.deps.repos.tokens.forgetUser = (id: number) => ((forgotten = id), original(id))
  try {
    const res = await manage({ id: user.id, action: 'disable' })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ role: Role.user, status: UserStatus.disabled })
  } finally {
    app.deps.repos.tokens.forgetUser = original
  }
  expect(forgotten).toBe(user.id)
  expect((await row(user.id)).status).toBe(UserStatus.disabled)
  expect((await call(app, 'GET', '/api/user/self', undefined, session)).status).toBe(401)
  expect((await call(app, 'POST', '/api/user/login', { username: 'switch', password: USER_PASSWORD })).status).toBe(401)

  expect((await manage({ id: user.id, action: 'enable' })).status).toBe(200)
  expect((await row(user.id)).status).toBe(UserStatus.enabled)
  expect((await call(app, 'GET', '/api/user/self', undefined, session)).status).toBe(401)
  expect((await call(app, 'GET', '/api/user/self', undefined, as(await login(app, 'switch')))).status).toBe(200)
})

test('promote and demote are root-only for admins', async () => {
  const user = await addUser(app, { username: 'climber' })
  expect((await manage({ id: user.id, action: 'promote' })).status).toBe(403)
  expect((await row(user.id)).role).toBe(Role.user)
  const up = await manage({ id: user.id, action: 'promote' }, root)
  expect(up.status).toBe(200)
  expect(up.body.data.role).toBe(Role.admin)
  expect((await row(user.id)).role).toBe(Role.admin)
  expect((await manage({ id: user.id, action: 'promote' }, root)).status).toBe(400)
  expect((await manage({ id: user.id, action: 'demote' })).status).toBe(403) // an admin on an admin
  expect((await manage({ id: user.id, action: 'demote' }, root)).status).toBe(200)
  expect((await row(user.id)).role).toBe(Role.user)
  expect((await manage({ id: user.id, action: 'demote' }, root)).status).toBe(400)
})

test('add_quota adds, subtracts (never below zero) and overrides', async () => {
  const user = await addUser(app, { username: 'wallet', quota: 100 })
  const add = await manage({ id: user.id, action: 'add_quota', value: 50 })
  expect(add.status).toBe(200)
  expect(add.body.data.quota).toBe(150)
  expect((await row(user.id)).quota).toBe(150)
  expect((await manage({ id: user.id, action: 'add_quota', mode: 'subtract', value: 40 })).status).toBe(200)
  expect((await row(user.id)).quota).toBe(110)
  const over = await manage({ id: user.id, action: 'add_quota', mode: 'subtract', value: 1000 })
  expect(over.status).toBe(400)
  expect((await row(user.id)).quota).toBe(110)
  expect((await manage({ id: user.id, action: 'add_quota', mode: 'override', value: 7 })).status).toBe(200)
  expect((await row(user.id)).quota).toBe(7)
  const noValue = await manage({ id: user.id, action: 'add_quota' })
  expect(noValue.status).toBe(400)
  expect(noValue.body.message).toContain('value')
  expect((await manage({ id: user.id, action: 'add_quota', value: 0 })).status).toBe(400)
  expect((await manage({ id: user.id, action: 'add_quota', value: 1.5 })).status).toBe(400)
  expect((await manage({ id: user.id, action: 'add_quota', mode: 'double', value: 5 })).status).toBe(400)
  expect((await row(user.id)).quota).toBe(7)
})

test('delete via manage removes the user', async () => {
  const user = await addUser(app, { username: 'goner' })
  expect((await manage({ id: user.id, action: 'delete' })).status).toBe(200)
  expect(await app.deps.repos.users.findById(user.id)).toBeUndefined()
})

test('nobody manages themselves, equals, higher roles or root', async () => {
  const self = await manage({ id: adminId, action: 'disable' })
  expect(self.status).toBe(403)
  expect(self.body.message).toContain('yourself')
  expect((await manage({ id: 1, action: 'delete' }, root)).status).toBe(403)
  expect((await manage({ id: 1, action: 'disable' })).status).toBe(403)
  expect((await manage({ id: 1, action: 'add_quota', value: 5 })).status).toBe(403)
  const peer = await addUser(app, { username: 'peer', role: Role.admin })
  expect((await manage({ id: peer.id, action: 'disable' })).status).toBe(403)
  expect((await row(peer.id)).status).toBe(UserStatus.enabled)
  expect((await row(1)).status).toBe(UserStatus.enabled)
  expect((await row(adminId)).status).toBe(UserStatus.enabled)
  // root may manage an admin
  expect((await manage({ id: peer.id, action: 'disable' }, root)).status).toBe(200)
})

test('bad manage input is 400 or 404, never 500', async () => {
  const user = await addUser(app, { username: 'target' })
  const unknownAction = await manage({ id: user.id, action: 'explode' })
  expect(unknownAction.status).toBe(400)
  expect(unknownAction.body.message).toContain('action')
  expect((await manage({ id: 'x', action: 'disable' })).status).toBe(400)
  expect((await manage({ action: 'disable' })).status).toBe(400)
  expect((await manage({ id: 987654, action: 'disable' })).status).toBe(404)
  expect((await manage('not json')).status).toBe(400)
})
