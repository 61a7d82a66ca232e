/**
 * Turnstile as new-api checks it: `?turnstile=` on login, registration, the verification mail and the reset mail,
 * verified at siteverify through the outbound guard (PROVIDER_ENDPOINTS' `turnstile` entry sends it to the fake);
 * the secret sealed and never shown; /api/status gives the console what it needs for the widget.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { as, login } from '../helpers/accounts'
import { type FakeTurnstile, startFakeTurnstile } from '../helpers/fake-turnstile'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { setOptions } from '../mail/mail-setup'

const SECRET = '0x4AAAAAAA-secret-for-tests'
let app: TestApp
let fake: FakeTurnstile
beforeAll(async () => {
  fake = startFakeTurnstile(SECRET)
  app = await startTestApp({ PROVIDER_ENDPOINTS: JSON.stringify({ turnstile: fake.url }) })
  const root = await login(app)
  await setOptions(app, root, { RegisterEnabled: true, TurnstileSiteKey: '1x00000000000000000000AA', TurnstileSecretKey: SECRET, TurnstileCheckEnabled: true })
})
afterAll(async () => {
  await app.stop()
  fake.stop()
})

const loginWith = (token?: string) =>
  call(app, 'POST', `/api/user/login${token === undefined ? '' : `?turnstile=${encodeURIComponent(token)}`}`, { username: 'root', password: 'root-password-123' })

test('/api/status tells the console to show the widget, with the site key and never the secret', async () => {
  const status = (await call(app, 'GET', '/api/status')).body.data
  expect(status.turnstile_check).toBe(true)
  expect(status.turnstile_site_key).toBe('1x00000000000000000000AA')
  expect(JSON.stringify(status)).not.toContain(SECRET)
})

test('login: a missing token is refused before any password check; a bad one by siteverify; a good one once', async () => {
  const missing = await loginWith()
  expect([missing.status, missing.body.success, missing.body.data.code]).toEqual([400, false, 'turnstile_missing'])
  expect(fake.calls).toHaveLength(0)
  const bad = await loginWith('made-up')
  expect([bad.status, bad.body.data.code]).toEqual([403, 'turnstile_failed'])
  expect(bad.body.message).toContain('invalid-input-response')
  const token = fake.issue()
  expect((await loginWith(token)).status).toBe(200)
  // siteverify got the sealed secret opened, the token and the client's address
  expect(fake.calls.at(-1)).toEqual({ secret: SECRET, response: token, remoteip: '127.0.0.1' })
  const replayed = await loginWith(token)
  expect([replayed.status, replayed.body.data.code]).toEqual([403, 'turnstile_failed'])
  expect(replayed.body.message).toContain('timeout-or-duplicate')
})

test('registration, the verification mail and the reset mail all need the token', async () => {
  const register = await call(app, 'POST', '/api/user/register', { username: 'newbie', password: 'pass-word-123' })
  expect([register.status, register.body.data.code]).toEqual([400, 'turnstile_missing'])
  expect(await app.deps.repos.users.findByUsername('newbie')).toBeUndefined()
  for (const path of ['/api/verification?email=a@example.com', '/api/reset_password?email=a@example.com']) {
    const res = await call(app, 'GET', path)
    expect([path, res.status, res.body.data.code]).toEqual([path, 400, 'turnstile_missing'])
  }
  const ok = await call(app, 'POST', `/api/user/register?turnstile=${fake.issue()}`, { username: 'newbie', password: 'pass-word-123' })
  expect(ok.status).toBe(200)
})

test('siteverify out of reach is a 503 (the request is not let through)', async () => {
  const root = await loginWith(fake.issue()).then((r) => r.headers.getSetCookie()[0]!.split(';')[0]!)
  fake.stop()
  const res = await loginWith('any-token')
  expect([res.status, res.body.data.code]).toEqual([503, 'turnstile_unavailable'])
  // the secret is stored sealed and listed masked
  const listed = await call(app, 'GET', '/api/option/', undefined, as(root))
  expect(listed.body.data.find((o: { key: string }) => o.key === 'TurnstileSecretKey')).toMatchObject({ value: '', configured: true })
  expect(JSON.stringify(listed.body)).not.toContain(SECRET)
})
