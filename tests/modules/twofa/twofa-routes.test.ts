import { afterAll, beforeAll, expect, test } from 'bun:test'
import { SignJWT } from 'jose'
import { LogType } from '../../../src/db/repos'
import { Role, UserStatus } from '../../../src/db/repos/user-roles'
import { addUser, as, login, sessionCookie } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { totpCode } from '../../helpers/totp'

let app: TestApp
beforeAll(async () => (app = await startTestApp()))
afterAll(() => app.stop())

/** A user with 2FA on, enrolled over HTTP: the secret, the backup codes, a session cookie. */
async function enrol(username: string) {
  const user = await addUser(app, { username, role: Role.user, status: UserStatus.enabled })
  const cookie = await login(app, username)
  const setup = await call(app, 'POST', '/api/user/2fa/setup', {}, as(cookie))
  expect(setup.status).toBe(200)
  const { secret, qr_code_data, backup_codes } = setup.body.data
  expect(qr_code_data).toStartWith(`otpauth://totp/Tollgate:${username}?`)
  expect(qr_code_data).toContain(`secret=${secret}`)
  expect(backup_codes).toHaveLength(10)
  const wrong = await call(app, 'POST', '/api/user/2fa/enable', { code: '000000' === totpCode(secret) ? '111111' : '000000' }, as(cookie))
  expect([wrong.status, wrong.body.data]).toEqual([400, { code: 'twofa_code_invalid' }])
  expect((await call(app, 'POST', '/api/user/2fa/enable', { code: totpCode(secret) }, as(cookie))).status).toBe(200)
  return { user, secret, backupCodes: backup_codes as string[], cookie }
}

const passwordStep = (username: string) => call(app, 'POST', '/api/user/login', { username, password: 'user-password-123' })

test('enrol, then sign in with a code: the password alone answers require_2fa and starts no session', async () => {
  const { secret } = await enrol('alice')
  expect((await call(app, 'GET', '/api/user/2fa/status', undefined, as(await codeLogin('alice', secret, 30_000)))).body.data).toEqual({
    enabled: true,
    locked: false,
    backup_codes_remaining: 10,
  })
})

async function codeLogin(username: string, secret: string, ahead: number): Promise<string> {
  const first = await passwordStep(username)
  expect(first.status).toBe(200)
  expect(first.body.data).toEqual({ require_2fa: true, flow_token: expect.any(String) })
  expect(first.headers.getSetCookie().some((c) => c.startsWith('tollgate_session='))).toBe(false)
  const second = await call(app, 'POST', '/api/user/login/2fa', { code: totpCode(secret, Date.now() + ahead), flow_token: first.body.data.flow_token })
  expect(second.status).toBe(200)
  expect(second.body.data.username).toBe(username)
  return sessionCookie(second.headers)
}

test('a replayed code is refused, and a reused backup code; the flow cookie alone carries the sign-in (new-api consoles post only the code)', async () => {
  const { secret, backupCodes } = await enrol('bob')
  const first = await passwordStep('bob')
  const code = totpCode(secret, Date.now() + 30_000)
  const ok = await call(app, 'POST', '/api/user/login/2fa', { code, flow_token: first.body.data.flow_token })
  expect(ok.status).toBe(200)
  const again = await passwordStep('bob')
  const replay = await call(app, 'POST', '/api/user/login/2fa', { code, flow_token: again.body.data.flow_token })
  expect([replay.status, replay.body.success, replay.body.data]).toEqual([400, false, { code: 'twofa_code_invalid' }])

  // the same pending sign-in, now with a backup code, through the cookie
  const flowCookie = again.headers.getSetCookie().find((c) => c.startsWith('tollgate_2fa='))!
  expect(flowCookie).toContain('HttpOnly')
  expect(flowCookie).toContain('Path=/api/user/login')
  const byBackup = await call(app, 'POST', '/api/user/login/2fa', { code: backupCodes[0] }, { cookie: flowCookie.split(';')[0]! })
  expect(byBackup.status).toBe(200)
  // the flow is spent
  const spent = await call(app, 'POST', '/api/user/login/2fa', { code: backupCodes[1], flow_token: again.body.data.flow_token })
  expect([spent.status, spent.body.data]).toEqual([401, { code: 'twofa_flow_expired' }])
  // a used backup code on a new sign-in
  const third = await passwordStep('bob')
  const reused = await call(app, 'POST', '/api/user/login/2fa', { code: backupCodes[0], flow_token: third.body.data.flow_token })
  expect([reused.status, reused.body.data]).toEqual([400, { code: 'twofa_code_invalid' }])
  const status = await call(app, 'GET', '/api/user/2fa/status', undefined, as(sessionCookie(byBackup.headers)))
  expect(status.body.data.backup_codes_remaining).toBe(9)
})

test('code attempts fall under the login limits: a burst of wrong codes gets 429 with Retry-After', async () => {
  await enrol('carol')
  const flow = (await passwordStep('carol')).body.data.flow_token
  const statuses: number[] = []
  for (let i = 0; i < 12; i++) statuses.push((await call(app, 'POST', '/api/user/login/2fa', { code: 'WRONG-CODE1', flow_token: flow })).status)
  expect(statuses).toContain(429)
  expect(statuses.indexOf(429)).toBeGreaterThan(0)
  const refused = await call(app, 'POST', '/api/user/login/2fa', { code: 'WRONG-CODE1', flow_token: flow })
  expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
})

test('backup codes regenerate with a TOTP code; disabling needs a code; status follows', async () => {
  const { secret, backupCodes, cookie } = await enrol('dave')
  const regen = await call(app, 'POST', '/api/user/2fa/backup_codes', { code: backupCodes[0] }, as(cookie))
  expect([regen.status, regen.body.data]).toEqual([400, { code: 'twofa_code_invalid' }])
  const fresh = await call(app, 'POST', '/api/user/2fa/backup_codes', { code: totpCode(secret, Date.now() + 30_000) }, as(cookie))
  expect(fresh.body.data.backup_codes).toHaveLength(10)
  expect((await call(app, 'POST', '/api/user/2fa/disable', { code: backupCodes[1] }, as(cookie))).status).toBe(400)
  expect((await call(app, 'POST', '/api/user/2fa/disable', { code: fresh.body.data.backup_codes[0] }, as(cookie))).status).toBe(200)
  expect((await call(app, 'GET', '/api/user/2fa/status', undefined, as(cookie))).body.data).toEqual({ enabled: false, locked: false })
  expect((await passwordStep('dave')).body.data.username).toBe('dave')
})

test('an admin resets a user\'s 2FA (a manage log row); not a peer admin\'s; 400 when there is none', async () => {
  const { user } = await enrol('erin')
  const root = await login(app)
  const reset = await call(app, 'DELETE', `/api/user/${user.id}/2fa`, undefined, as(root))
  expect(reset.status).toBe(200)
  expect((await passwordStep('erin')).body.data.username).toBe('erin')
  const again = await call(app, 'DELETE', `/api/user/${user.id}/2fa`, undefined, as(root))
  expect([again.status, again.body.data]).toEqual([400, { code: 'twofa_not_enabled' }])
  const logs = await call(app, 'GET', `/api/log/?type=${LogType.manage}&p=1`, undefined, as(root))
  expect(JSON.stringify(logs.body)).toContain(`DELETE /api/user/${user.id}/2fa`)

  await addUser(app, { username: 'admin2', role: Role.admin, status: UserStatus.enabled })
  const peer = await addUser(app, { username: 'peer', role: Role.admin, status: UserStatus.enabled })
  const refused = await call(app, 'DELETE', `/api/user/${peer.id}/2fa`, undefined, as(await login(app, 'admin2')))
  expect(refused.status).toBe(403)
})

test('secure verification: revealing the access token needs a check within 5 minutes; /api/verify renews it', async () => {
  const { user, secret } = await enrol('frank')
  const cookie = await codeLogin('frank', secret, 30_000)
  expect((await call(app, 'GET', '/api/user/token', undefined, as(cookie))).status).toBe(200) // the login just proved it

  const stale = await staleCookie(user.id, user.sessionVersion, 301)
  const refused = await call(app, 'GET', '/api/user/token', undefined, as(stale))
  expect([refused.status, refused.body.data]).toEqual([403, { code: 'secure_verification_required' }])
  const badPassword = await call(app, 'POST', '/api/verify', { method: 'password', password: 'nope' }, as(stale))
  expect([badPassword.status, badPassword.body.data]).toEqual([400, { code: 'secure_verification_password_wrong' }])
  const byCode = await call(app, 'POST', '/api/verify', { method: '2fa', code: totpCode(secret, Date.now() - 30_000) }, as(stale))
  expect(byCode.status).toBe(400) // older than the step the login took
  const verified = await call(app, 'POST', '/api/verify', { method: 'password', password: 'user-password-123' }, as(stale))
  expect(verified.status).toBe(200)
  expect(verified.body.data.expires_at).toBeGreaterThan(Date.now() / 1000 + 290)
  const renewed = sessionCookie(verified.headers)
  const token = await call(app, 'GET', '/api/user/token', undefined, as(renewed))
  expect(token.status).toBe(200)
  // an access token is no session: it cannot be verified (its holder may still rotate it, holding the secret already)
  const bearer = await call(app, 'POST', '/api/verify', { method: 'password', password: 'user-password-123' }, { authorization: `Bearer ${token.body.data}` })
  expect([bearer.status, bearer.body.data]).toEqual([403, { code: 'secure_verification_needs_session' }])
})

/** A session cookie of this app whose last verification was `age` seconds ago. */
async function staleCookie(uid: number, sv: number, age: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  const jwt = await new SignJWT({ uid, sv, jti: crypto.randomUUID(), va: now - age })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(app.deps.secrets.session))
  return `tollgate_session=${jwt}`
}
