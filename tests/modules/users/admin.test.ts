import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Role } from '../../../src/db/repos/user-roles'
import { addUser, as, login } from '../../helpers/accounts'
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

const users = () => app.deps.repos.users

test('GET /api/user/ pages users without secrets', async () => {
  for (let i = 0; i < 12; i++) await addUser(app, { username: `pager${i}`, accessToken: `hash${i}` })
  const res = await call(app, 'GET', '/api/user/?p=1&page_size=5', undefined, admin)
  expect(res.status).toBe(200)
  const lowerRoles = (await users().list(0, 1, undefined, Role.user)).total
  expect(res.body.data).toMatchObject({ page: 1, page_size: 5, total: lowerRoles })
  expect(res.body.data.items).toHaveLength(5)
  for (const item of res.body.data.items) {
    expect(item).not.toHaveProperty('password')
    expect(item).not.toHaveProperty('access_token')
    expect(item).not.toHaveProperty('accessToken')
  }
  expect(JSON.stringify(res.body)).not.toMatch(/argon2|hash\d/)
  const page3 = await call(app, 'GET', '/api/user/?p=3&page_size=5', undefined, admin)
  expect(page3.body.data.page).toBe(3)
  expect((await call(app, 'GET', '/api/user/?page_size=1000', undefined, admin)).status).toBe(400)
  expect((await call(app, 'GET', '/api/user/?p=abc', undefined, admin)).status).toBe(400)
})

test('GET /api/user/search finds by keyword', async () => {
  await addUser(app, { username: 'findme_zz', displayName: 'Findable' })
  const res = await call(app, 'GET', '/api/user/search?keyword=findme_z', undefined, admin)
  expect(res.status).toBe(200)
  expect(res.body.data.total).toBe(1)
  expect(res.body.data.items[0].username).toBe('findme_zz')
})

test('an admin lists and finds only users of a lower role: not root, not other admins; root lists everyone', async () => {
  await addUser(app, { username: 'peer_admin', role: Role.admin })
  await addUser(app, { username: 'peer_user' })
  const listed = async (path: string, who: Record<string, string>) => {
    const res = await call(app, 'GET', path, undefined, who)
    expect(res.status).toBe(200)
    return { names: res.body.data.items.map((u: { username: string }) => u.username) as string[], total: res.body.data.total as number }
  }
  const byAdmin = await listed('/api/user/?page_size=100', admin)
  expect(byAdmin.names).toContain('peer_user')
  for (const hidden of ['root', 'boss', 'peer_admin']) expect(byAdmin.names).not.toContain(hidden)
  expect(byAdmin.total).toBe(byAdmin.names.length)
  for (const keyword of ['root', 'peer_admin', 'boss']) expect((await listed(`/api/user/search?keyword=${keyword}`, admin)).total).toBe(0)
  // a keyword that is an id matches that id too: not a hidden user's
  for (const [id, name] of [[1, 'root'], [adminId, 'boss']] as const) expect((await listed(`/api/user/search?keyword=${id}`, admin)).names).not.toContain(name)
  expect((await listed('/api/user/search?keyword=peer_', admin)).names).toEqual(['peer_user'])
  const byRoot = await listed('/api/user/?page_size=100', root)
  for (const shown of ['root', 'boss', 'peer_admin', 'peer_user']) expect(byRoot.names).toContain(shown)
  expect(byRoot.total).toBe(await users().count())
  // by id too: 403 in the envelope for root and for another admin
  for (const id of [1, (await users().findByUsername('peer_admin'))!.id]) {
    const res = await call(app, 'GET', `/api/user/${id}`, undefined, admin)
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ success: false })
  }
})

test('GET /api/user/:id: lower roles only for admins, 404 unknown, 400 non-numeric', async () => {
  const user = await addUser(app, { username: 'viewed' })
  const res = await call(app, 'GET', `/api/user/${user.id}`, undefined, admin)
  expect(res.status).toBe(200)
  expect(res.body.data.username).toBe('viewed')
  expect(res.body.data).not.toHaveProperty('password')
  expect((await call(app, 'GET', '/api/user/1', undefined, admin)).status).toBe(403)
  expect((await call(app, 'GET', `/api/user/${adminId}`, undefined, root)).status).toBe(200)
  const missing = await call(app, 'GET', '/api/user/999999', undefined, admin)
  expect(missing.status).toBe(404)
  expect(missing.body.success).toBe(false)
  expect((await call(app, 'GET', '/api/user/abc', undefined, admin)).status).toBe(400)
  expect((await call(app, 'GET', '/api/user/-3', undefined, admin)).status).toBe(400)
  expect((await call(app, 'GET', '/api/user/1e400', undefined, admin)).status).toBe(400)
})

test('POST /api/user/ creates users; only root creates admins; no one creates roots', async () => {
  const res = await call(app, 'POST', '/api/user/', { username: 'created', password: 'created-password', display_name: 'C', quota: 50 }, admin)
  expect(res.status).toBe(200)
  expect(res.body.data).toMatchObject({ username: 'created', display_name: 'C', role: Role.user, quota: 50 })
  expect(await Bun.password.verify('created-password', (await users().findByUsername('created'))!.password)).toBe(true)
  await login(app, 'created', 'created-password')

  expect((await call(app, 'POST', '/api/user/', { username: 'sneaky', password: 'sneaky-password', role: Role.admin }, admin)).status).toBe(403)
  const byRoot = await call(app, 'POST', '/api/user/', { username: 'admin2', password: 'admin2-password', role: Role.admin }, root)
  expect(byRoot.status).toBe(200)
  expect((await users().findByUsername('admin2'))!.role).toBe(Role.admin)
  expect((await call(app, 'POST', '/api/user/', { username: 'root2', password: 'root2-password', role: Role.root }, root)).status).toBe(400)
  expect((await call(app, 'POST', '/api/user/', { username: 'created', password: 'created-password' }, admin)).status).toBe(409)
  expect((await call(app, 'POST', '/api/user/', { username: 'nopass', password: 'short' }, admin)).status).toBe(400)
  expect((await call(app, 'POST', '/api/user/', { username: 'neg', password: 'neg-password', quota: -1 }, admin)).status).toBe(400)
  expect(await users().findByUsername('sneaky')).toBeUndefined()
  expect(await users().findByUsername('root2')).toBeUndefined()
})

test('PUT /api/user/ edits lower-role users; a new password revokes their sessions', async () => {
  const user = await addUser(app, { username: 'editee' })
  const theirs = as(await login(app, 'editee'))
  const res = await call(app, 'PUT', '/api/user/', { id: user.id, display_name: 'Edited', group: 'vip', quota: 999, password: '' }, admin)
  expect(res.status).toBe(200)
  expect(res.body.data).toMatchObject({ display_name: 'Edited', group: 'vip', quota: 999 })
  expect((await call(app, 'GET', '/api/user/self', undefined, theirs)).status).toBe(200)

  expect((await call(app, 'PUT', '/api/user/', { id: user.id, password: 'reset-by-admin' }, admin)).status).toBe(200)
  expect((await users().findById(user.id))!.sessionVersion).toBe(user.sessionVersion + 1)
  expect((await call(app, 'GET', '/api/user/self', undefined, theirs)).status).toBe(401)
  await login(app, 'editee', 'reset-by-admin')

  expect((await call(app, 'PUT', '/api/user/', { id: user.id, role: Role.admin }, admin)).status).toBe(403)
  expect((await call(app, 'PUT', '/api/user/', { id: 1, display_name: 'hacked' }, admin)).status).toBe(403)
  expect((await call(app, 'PUT', '/api/user/', { id: adminId, display_name: 'me' }, admin)).status).toBe(403)
  expect((await call(app, 'PUT', '/api/user/', { id: 1, display_name: 'self' }, root)).status).toBe(403)
  expect((await call(app, 'PUT', '/api/user/', { id: user.id, username: 'root' }, admin)).status).toBe(409)
  expect((await call(app, 'PUT', '/api/user/', { id: 424242, display_name: 'x' }, admin)).status).toBe(404)
  expect((await call(app, 'PUT', '/api/user/', { id: 'abc' }, admin)).status).toBe(400)
  expect((await call(app, 'PUT', '/api/user/', { id: user.id, password: 'short' }, admin)).status).toBe(400)
  expect((await users().findById(1))!.displayName).toBe('Root')
})

test('DELETE /api/user/:id removes lower-role users and their tokens', async () => {
  const user = await addUser(app, { username: 'doomed' })
  app.db.$client.run("INSERT INTO tokens (user_id, key_hash, key_hint) VALUES (?, 'doomedhash', 'sk-d...d')", [user.id])
  expect(await app.deps.repos.tokens.findByKeyHash('doomedhash')).toBeDefined()
  const res = await call(app, 'DELETE', `/api/user/${user.id}`, undefined, admin)
  expect(res.status).toBe(200)
  expect(await users().findById(user.id)).toBeUndefined()
  expect(await app.deps.repos.tokens.findByKeyHash('doomedhash')).toBeUndefined()
  expect((await call(app, 'DELETE', `/api/user/${user.id}`, undefined, admin)).status).toBe(404)
  expect((await call(app, 'DELETE', '/api/user/1', undefined, admin)).status).toBe(403)
  expect((await call(app, 'DELETE', `/api/user/${adminId}`, undefined, admin)).status).toBe(403)
  expect((await call(app, 'DELETE', '/api/user/1', undefined, root)).status).toBe(403)
  expect((await call(app, 'DELETE', '/api/user/xyz', undefined, admin)).status).toBe(400)
  expect(await users().findById(1)).toBeDefined()
})

test('admin routes need role >= 10', async () => {
  await addUser(app, { username: 'commoner' })
  const commoner = as(await login(app, 'commoner'))
  for (const [method, path] of [['GET', '/api/user/'], ['GET', '/api/user/search?keyword=a'], ['GET', '/api/user/1'], ['DELETE', '/api/user/1']]) {
    expect((await call(app, method!, path!, undefined, commoner)).status).toBe(403)
  }
  expect((await call(app, 'POST', '/api/user/manage', { id: 1, action: 'disable' }, commoner)).status).toBe(403)
  expect((await call(app, 'GET', '/api/user/')).status).toBe(401)
})
