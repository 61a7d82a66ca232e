/**
 * Credentials follow the account (issue #28): a password change or reset and "log out everywhere" end every
 * session and the management access token; disabling a user ends them too, and re-enabling revives none of them.
 * Logging out of one session leaves the access token alone: it is a standing credential, as in new-api.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { controlActions } from '../../../src/cli/control'
import { SESSION_COOKIE } from '../../../src/plugins/session'
import { Role } from '../../../src/db/repos/user-roles'
import { addUser, as, login, sessionCookie, USER_PASSWORD } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
let admin: Record<string, string>
beforeAll(async () => {
  app = await startTestApp()
  await addUser(app, { username: 'keeper', role: Role.admin })
  admin = as(await login(app, 'keeper'))
})
afterAll(() => app.stop())

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const selfWith = async (headers: Record<string, string>) => (await call(app, 'GET', '/api/user/self', undefined, headers)).status
const sessionStatus = (cookie: string) => selfWith(as(cookie))
const tokenStatus = (token: string) => selfWith(bearer(token))

/** A user with two logged-in devices and a management access token, each shown working. */
async function account(username: string) {
  const user = await addUser(app, { username })
  const laptop = await login(app, username)
  const phone = await login(app, username)
  const issued = await call(app, 'GET', '/api/user/token', undefined, as(laptop))
  expect(issued.status).toBe(200)
  const token = issued.body.data as string
  for (const status of [await sessionStatus(laptop), await sessionStatus(phone), await tokenStatus(token)]) expect(status).toBe(200)
  return { user, laptop, phone, token }
}

/** Every credential issued before is refused with the envelope's 401, and a fresh login works. */
async function expectAllEnded(creds: { laptop: string; phone: string; token: string }, username: string, password = USER_PASSWORD) {
  for (const headers of [as(creds.laptop), as(creds.phone), bearer(creds.token)]) {
    const res = await call(app, 'GET', '/api/user/self', undefined, headers)
    expect(res.status).toBe(401)
    expect(res.body.success).toBe(false)
  }
  const fresh = await login(app, username, password)
  expect(await sessionStatus(fresh)).toBe(200)
  // a new access token is issued as before, and works
  const next = (await call(app, 'GET', '/api/user/token', undefined, as(fresh))).body.data as string
  expect(next).not.toBe(creds.token)
  expect(await tokenStatus(next)).toBe(200)
}

test('a password change ends the other sessions and the access token; this browser gets a fresh cookie', async () => {
  const creds = await account('changer')
  const res = await call(app, 'PUT', '/api/user/self', { password: 'changed-password-1', original_password: USER_PASSWORD }, as(creds.laptop))
  expect(res.status).toBe(200)
  expect(res.body.message).toContain('access token')
  const renewed = sessionCookie(res.headers)
  expect(await sessionStatus(renewed)).toBe(200)
  await expectAllEnded(creds, 'changer', 'changed-password-1')
})

test('a password change made with the access token ends that token too', async () => {
  const creds = await account('scripted')
  const res = await call(app, 'PUT', '/api/user/self', { password: 'changed-password-2', original_password: USER_PASSWORD }, bearer(creds.token))
  expect(res.status).toBe(200)
  await expectAllEnded(creds, 'scripted', 'changed-password-2')
})

test("an admin's password reset ends the user's sessions and access token", async () => {
  const creds = await account('forgetful')
  expect((await call(app, 'PUT', '/api/user/', { id: creds.user.id, password: 'reset-by-admin-1' }, admin)).status).toBe(200)
  await expectAllEnded(creds, 'forgetful', 'reset-by-admin-1')
})

test('`tollgate reset-password` (its action, run by the gateway or the offline command) ends them too', async () => {
  const creds = await account('locked-out')
  await controlActions(app.deps).resetPassword('locked-out', 'reset-by-command-1')
  await expectAllEnded(creds, 'locked-out', 'reset-by-command-1')
})

test('POST /api/user/logout_all ends every session and the access token, and clears the cookie', async () => {
  const creds = await account('everywhere')
  const res = await call(app, 'POST', '/api/user/logout_all', undefined, as(creds.phone))
  expect(res.status).toBe(200)
  expect(res.body).toMatchObject({ success: true, data: null })
  const cleared = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!
  expect(cleared).toStartWith(`${SESSION_COOKIE}=;`)
  expect(cleared).toContain('Max-Age=0')
  await expectAllEnded(creds, 'everywhere')
})

test('logout_all with the access token alone works as well; without a credential it is 401', async () => {
  const creds = await account('tokenonly')
  expect((await call(app, 'POST', '/api/user/logout_all', undefined, bearer(creds.token))).status).toBe(200)
  await expectAllEnded(creds, 'tokenonly')
  const anonymous = await call(app, 'POST', '/api/user/logout_all')
  expect(anonymous.status).toBe(401)
  expect(anonymous.body.success).toBe(false)
})

test("logging out of one session ends that session only: the access token is a standing credential", async () => {
  const creds = await account('oneoff')
  expect((await call(app, 'GET', '/api/user/logout', undefined, as(creds.laptop))).status).toBe(200)
  expect(await sessionStatus(creds.laptop)).toBe(401)
  expect(await sessionStatus(creds.phone)).toBe(200)
  expect(await tokenStatus(creds.token)).toBe(200)
})

test('disabling a user ends their sessions and access token; re-enabling revives neither, a new login works', async () => {
  const creds = await account('suspended')
  expect((await call(app, 'POST', '/api/user/manage', { id: creds.user.id, action: 'disable' }, admin)).status).toBe(200)
  for (const status of [await sessionStatus(creds.laptop), await tokenStatus(creds.token)]) expect(status).toBe(401)
  expect((await call(app, 'POST', '/api/user/manage', { id: creds.user.id, action: 'enable' }, admin)).status).toBe(200)
  await expectAllEnded(creds, 'suspended')
  // enabling a user who is already enabled ends nothing
  const session = await login(app, 'suspended')
  expect((await call(app, 'POST', '/api/user/manage', { id: creds.user.id, action: 'enable' }, admin)).status).toBe(200)
  expect(await sessionStatus(session)).toBe(200)
})

test('the access token is stored only as its hash, and a rotation leaves no hash behind', async () => {
  const creds = await account('hashed')
  const stored = (await app.deps.repos.users.findById(creds.user.id))!.accessToken
  expect(stored).toMatch(/^[0-9a-f]{64}$/)
  expect(stored).not.toContain(creds.token)
  expect((await call(app, 'POST', '/api/user/logout_all', undefined, as(creds.laptop))).status).toBe(200)
  expect((await app.deps.repos.users.findById(creds.user.id))!.accessToken).toBeNull()
})
