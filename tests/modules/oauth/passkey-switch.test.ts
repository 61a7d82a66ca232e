/**
 * `passkey.enabled` (new-api's option name): off, no passkey ceremony starts or finishes (sign-in, adding one,
 * verifying with one) and /api/status tells the login page; on again, they start. Listing and removing stay.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { as, login } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
let root: Record<string, string>
beforeAll(async () => {
  app = await startTestApp()
  root = as(await login(app))
})
afterAll(() => app.stop())

const credential = { id: 'x', rawId: 'x', type: 'public-key', response: {} }

test('off: every passkey ceremony is refused with passkey_disabled; /api/status says so; on again: sign-in starts', async () => {
  expect((await call(app, 'GET', '/api/status')).body.data.passkey_login).toBe(true)
  expect((await call(app, 'PUT', '/api/option/', { key: 'passkey.enabled', value: false }, root)).status).toBe(200)
  expect((await call(app, 'GET', '/api/status')).body.data.passkey_login).toBe(false)
  for (const [path, body, who] of [
    ['/api/user/passkey/login/begin', undefined, {}],
    ['/api/user/passkey/login/finish', credential, {}],
    ['/api/user/passkey/register/begin', undefined, root],
    ['/api/user/passkey/verify/begin', undefined, root],
  ] as const) {
    const res = await call(app, 'POST', path, body, who)
    expect([path, res.status, res.body.data?.code]).toEqual([path, 403, 'passkey_disabled'])
  }
  // the user's list (and removing) still answer
  expect((await call(app, 'GET', '/api/user/passkey', undefined, root)).status).toBe(200)

  expect((await call(app, 'PUT', '/api/option/', { key: 'passkey.enabled', value: true }, root)).status).toBe(200)
  const begun = await call(app, 'POST', '/api/user/passkey/login/begin')
  expect(begun.status).toBe(200)
  expect(typeof begun.body.data.options.challenge).toBe('string')
})
