import { afterAll, beforeAll, expect, test } from 'bun:test'
import { SignJWT } from 'jose'
import { SESSION_COOKIE } from '../../../src/plugins/session'
import { addUser, as, login } from '../../helpers/accounts'
import { call, restartTestApp, startTestApp, type TestApp } from '../../helpers/test-app'
import { until } from '../../helpers/wait'

let app: TestApp
beforeAll(async () => (app = await startTestApp()))
afterAll(() => app.stop())

const nowSeconds = () => Math.floor(Date.now() / 1000)
const self = (cookie: string, on = app) => call(on, 'GET', '/api/user/self', undefined, as(cookie))
const logout = (headers: Record<string, string> = {}, on = app) => call(on, 'GET', '/api/user/logout', undefined, headers)

function expectClearedCookie(headers: Headers) {
  const cleared = headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!
  expect(cleared).toStartWith(`${SESSION_COOKIE}=;`)
  expect(cleared).toContain('Max-Age=0')
}

/** A cookie as this gateway signed them before sessions had ids: `uid` and `sv`, no `jti`. */
async function legacyCookie(userId: number, sessionVersion: number): Promise<string> {
  const key = new TextEncoder().encode(app.deps.secrets.session)
  const jwt = await new SignJWT({ uid: userId, sv: sessionVersion }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setExpirationTime('30d').sign(key)
  return `${SESSION_COOKIE}=${jwt}`
}

test('after logout the old cookie is refused with the same 401 as an invalid session', async () => {
  await addUser(app, { username: 'leaver' })
  const cookie = await login(app, 'leaver')
  expect((await self(cookie)).status).toBe(200)

  const res = await logout(as(cookie))
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ success: true, message: 'logged out', data: null })
  expectClearedCookie(res.headers)

  const replay = await self(cookie)
  const forged = await self(`${SESSION_COOKIE}=forged.jwt.value`)
  expect(replay.status).toBe(401)
  expect(replay.body).toEqual(forged.body)
  expect(replay.body.success).toBe(false)
})

test('logout ends only its own session: the same user on another device stays logged in', async () => {
  await addUser(app, { username: 'twodevices' })
  const laptop = await login(app, 'twodevices')
  const phone = await login(app, 'twodevices')
  expect((await logout(as(laptop))).status).toBe(200)
  expect((await self(laptop)).status).toBe(401)
  expect((await self(phone)).status).toBe(200)
})

test('logout without a cookie, with a forged one, or twice still succeeds and clears the cookie', async () => {
  const cookie = await login(app)
  const before = (await app.deps.repos.revokedSessions.unexpired(0)).length
  for (const headers of [{}, { cookie: `${SESSION_COOKIE}=forged.jwt.value` }, as(cookie), as(cookie)]) {
    const res = await logout(headers)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, message: 'logged out', data: null })
    expectClearedCookie(res.headers)
  }
  expect((await app.deps.repos.revokedSessions.unexpired(0)).length).toBe(before + 1)
})

test('a cookie from before session ids keeps working; its logout ends it by bumping the session version', async () => {
  const user = await addUser(app, { username: 'legacy' })
  const old = await legacyCookie(user.id, user.sessionVersion)
  expect((await self(old)).status).toBe(200)

  expect((await logout(as(old))).status).toBe(200)
  expect((await app.deps.repos.users.findById(user.id))!.sessionVersion).toBe(user.sessionVersion + 1)
  expect((await self(old)).status).toBe(401)
  // a stale legacy cookie cannot bump the version again (it would log the user out everywhere)
  expect((await logout(as(old))).status).toBe(200)
  expect((await app.deps.repos.users.findById(user.id))!.sessionVersion).toBe(user.sessionVersion + 1)
})

test('revocations survive a restart on the same database file; expired ones are pruned once the node runs the pruning job', async () => {
  const own = await startTestApp()
  await addUser(own, { username: 'restarter' })
  const ended = await login(own, 'restarter')
  const kept = await login(own, 'restarter')
  expect((await logout(as(ended), own)).status).toBe(200)
  await own.deps.repos.revokedSessions.insert('expired-session', nowSeconds() - 1)
  await own.deps.repos.revokedSessions.insert('unexpired-session', nowSeconds() + 3600)

  const again = await restartTestApp(own)
  try {
    expect((await self(ended, again)).status).toBe(401)
    expect((await self(kept, again)).status).toBe(200)
    expect(again.deps.revokedSessions.isRevoked('expired-session')).toBe(false)
    // the job starts as the server does (one node alone takes its lease at once) and prunes first thing
    let ids: string[] = []
    await until(async () => (ids = (await again.deps.repos.revokedSessions.unexpired(0)).map((row) => row.id)).length <= 2, { what: 'the expired session pruned' })
    expect(again.deps.jobs.held).toContain('session-prune')
    expect(ids).toHaveLength(2)
    expect(ids).toContain('unexpired-session')
    expect(ids).not.toContain('expired-session')
    expect(again.deps.revokedSessions.isRevoked('unexpired-session')).toBe(true)
  } finally {
    await again.stop()
  }
})
