import { afterAll, beforeAll, expect, test } from 'bun:test'
import { LOGIN_FAILED } from '../../../src/modules/auth/login'
import { Role, UserStatus } from '../../../src/db/repos/user-roles'
import { sha256 } from '../../../src/crypto/sha256'
import { addUser, as, login, sessionCookie, USER_PASSWORD } from '../../helpers/accounts'
import { call, ROOT_PASSWORD, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
beforeAll(async () => (app = await startTestApp()))
afterAll(() => app.stop())

test('login answers the short user view and sets an httpOnly SameSite=Strict 30-day cookie', async () => {
  const res = await call(app, 'POST', '/api/user/login', { username: 'root', password: ROOT_PASSWORD })
  expect(res.status).toBe(200)
  expect(res.body).toEqual({
    success: true,
    message: '',
    data: { id: 1, username: 'root', display_name: 'Root', role: Role.root, status: UserStatus.enabled, group: 'default' },
  })
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('tollgate_session='))!
  expect(cookie).toContain('HttpOnly')
  expect(cookie).toContain('SameSite=Strict')
  expect(cookie).toContain(`Max-Age=${30 * 86400}`)
  expect(cookie).toContain('Path=/')
  expect(cookie).not.toContain('Secure') // plain http on loopback

  const self = await call(app, 'GET', '/api/user/self', undefined, as(sessionCookie(res.headers)))
  expect(self.status).toBe(200)
  expect(self.body.data.username).toBe('root')
})

test('the cookie is Secure behind an https proxy when TRUST_PROXY is set', async () => {
  const proxied = await startTestApp({ TRUST_PROXY: 'true' })
  try {
    const res = await call(proxied, 'POST', '/api/user/login', { username: 'root', password: ROOT_PASSWORD }, { 'x-forwarded-proto': 'https' })
    expect(res.status).toBe(200)
    expect(res.headers.getSetCookie().join()).toContain('Secure')
  } finally {
    await proxied.stop()
  }
})

test('wrong password, unknown user and disabled user get the same 401 and message', async () => {
  await addUser(app, { username: 'sleeper', status: UserStatus.disabled })
  const wrong = await call(app, 'POST', '/api/user/login', { username: 'root', password: 'not-the-password' })
  const unknown = await call(app, 'POST', '/api/user/login', { username: 'nobody', password: 'whatever-pass' })
  const disabled = await call(app, 'POST', '/api/user/login', { username: 'sleeper', password: USER_PASSWORD })
  for (const res of [wrong, unknown, disabled]) {
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ success: false, message: LOGIN_FAILED, data: expect.objectContaining({ code: expect.any(String) }) })
    expect(res.headers.getSetCookie()).toEqual([])
  }
})

test('login rejects malformed bodies with 400', async () => {
  expect((await call(app, 'POST', '/api/user/login', '{"username":')).status).toBe(400)
  const missing = await call(app, 'POST', '/api/user/login', { username: 'root' })
  expect(missing.status).toBe(400)
  expect(missing.body.message).toContain('password')
  expect((await call(app, 'POST', '/api/user/login', { username: 'root', password: 12345678 })).status).toBe(400)
})

test('logout clears the cookie', async () => {
  const cookie = await login(app)
  const res = await call(app, 'GET', '/api/user/logout', undefined, as(cookie))
  expect(res.status).toBe(200)
  const cleared = res.headers.getSetCookie().find((c) => c.startsWith('tollgate_session='))!
  expect(cleared).toStartWith('tollgate_session=;')
  expect(cleared).toContain('Max-Age=0')
})

test('routes that need a login answer 401 without one and 403 below their role', async () => {
  expect((await call(app, 'GET', '/api/user/self')).status).toBe(401)
  expect((await call(app, 'GET', '/api/user/self', undefined, { cookie: 'tollgate_session=forged.jwt.value' })).status).toBe(401)
  await addUser(app, { username: 'plain' })
  const res = await call(app, 'GET', '/api/user/', undefined, as(await login(app, 'plain')))
  expect(res.status).toBe(403)
  expect(res.body.success).toBe(false)
})

test('GET /api/user/token issues an access token that works as Bearer; only its sha-256 is stored', async () => {
  const user = await addUser(app, { username: 'tokenuser' })
  const res = await call(app, 'GET', '/api/user/token', undefined, as(await login(app, 'tokenuser')))
  expect(res.status).toBe(200)
  const token: string = res.body.data
  expect(token.length).toBeGreaterThanOrEqual(32)
  expect((await app.deps.repos.users.findById(user.id))!.accessToken).toBe(sha256(token))

  const self = await call(app, 'GET', '/api/user/self', undefined, { authorization: `Bearer ${token}` })
  expect(self.status).toBe(200)
  expect(self.body.data.username).toBe('tokenuser')
  expect(JSON.stringify(self.body)).not.toContain(sha256(token))
  expect(self.body.data).not.toHaveProperty('access_token')
  expect(self.body.data).not.toHaveProperty('password')

  expect((await call(app, 'GET', '/api/user/self', undefined, { authorization: `Bearer ${token}x` })).status).toBe(401)

  // a new token replaces the old one
  const second = await call(app, 'GET', '/api/user/token', undefined, { authorization: `Bearer ${token}` })
  expect(second.status).toBe(200)
  expect((await call(app, 'GET', '/api/user/self', undefined, { authorization: `Bearer ${token}` })).status).toBe(401)
  expect((await call(app, 'GET', '/api/user/self', undefined, { authorization: `Bearer ${second.body.data}` })).status).toBe(200)
})

test('a New-Api-User header that does not match the logged-in user is 401', async () => {
  const user = await addUser(app, { username: 'headeruser' })
  const cookie = await login(app, 'headeruser')
  expect((await call(app, 'GET', '/api/user/self', undefined, { cookie, 'new-api-user': String(user.id) })).status).toBe(200)
  const res = await call(app, 'GET', '/api/user/self', undefined, { cookie, 'new-api-user': '1' })
  expect(res.status).toBe(401)
  expect(res.body.message).toContain('New-Api-User')
})

test('changing the password revokes old cookies; the changing browser gets a fresh one', async () => {
  const user = await addUser(app, { username: 'changer' })
  const other = await login(app, 'changer')
  const mine = await login(app, 'changer')
  const res = await call(app, 'PUT', '/api/user/self', { password: 'brand-new-password', original_password: USER_PASSWORD }, as(mine))
  expect(res.status).toBe(200)
  expect((await app.deps.repos.users.findById(user.id))!.sessionVersion).toBe(user.sessionVersion + 1)

  expect((await call(app, 'GET', '/api/user/self', undefined, as(other))).status).toBe(401)
  expect((await call(app, 'GET', '/api/user/self', undefined, as(mine))).status).toBe(401)
  const fresh = sessionCookie(res.headers)
  expect((await call(app, 'GET', '/api/user/self', undefined, as(fresh))).status).toBe(200)

  expect((await call(app, 'POST', '/api/user/login', { username: 'changer', password: USER_PASSWORD })).status).toBe(401)
  expect((await call(app, 'POST', '/api/user/login', { username: 'changer', password: 'brand-new-password' })).status).toBe(200)
})
