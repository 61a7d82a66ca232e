/**
 * Passkeys in a real Chromium with its virtual authenticator (CDP WebAuthn domain): enrol from a logged-in
 * session, sign in without a password (a discoverable credential), verify a session, the counter kept, an admin
 * reset. The page runs the browser's own WebAuthn JSON API against the server's options.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { Role, UserStatus } from '../../src/db/repos/user-roles'
import { addUser, USER_PASSWORD } from '../helpers/accounts'
import { startTestApp, type TestApp } from '../helpers/test-app'
import { browserAvailable, BROWSER_HEADERS, E2E_TIMEOUT, sharedBrowser } from './harness'

describe.skipIf(!browserAvailable)('passkeys with a virtual authenticator', () => {
  let app: TestApp
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let origin = ''

  beforeAll(async () => {
    ;[app, browser] = await Promise.all([startTestApp(), sharedBrowser()])
    // WebAuthn wants a domain for its RP ID (an IP address is none): localhost is one, and a secure context
    origin = app.url.replace('127.0.0.1', 'localhost')
    context = await browser.newContext({ extraHTTPHeaders: BROWSER_HEADERS })
    page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    })
    await addUser(app, { username: 'pat', role: Role.user, status: UserStatus.enabled })
    await page.goto(`${origin}/api/status`)
  }, E2E_TIMEOUT)
  afterAll(async () => {
    await context?.close() // the browser is the worker's: leave it as found
    await app?.stop()
  })

  /** fetch from the page (its cookies, its origin), answering status and body */
  const api = (method: string, path: string, body?: unknown) =>
    page.evaluate(
      async ([method, path, body]) => {
        const res = await fetch(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
        return { status: res.status, body: await res.json() }
      },
      [method, path, body] as const,
    )
  const create = (options: unknown) =>
    page.evaluate(async (options) => {
      const credential = (await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options as never) })) as PublicKeyCredential
      return credential.toJSON()
    }, options)
  const get = (options: unknown) =>
    page.evaluate(async (options) => {
      const credential = (await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options as never) })) as PublicKeyCredential
      return credential.toJSON()
    }, options)

  test(
    'enrol, then sign in without a password; the counter moves; a replayed assertion is refused',
    async () => {
      expect((await api('POST', '/api/user/login', { username: 'pat', password: USER_PASSWORD })).status).toBe(200)
      const begin = await api('POST', '/api/user/passkey/register/begin')
      expect(begin.status).toBe(200)
      expect(begin.body.data.options.rp).toEqual({ id: 'localhost', name: 'Tollgate' })
      expect(begin.body.data.options.authenticatorSelection.residentKey).toBe('required')
      const finish = await api('POST', '/api/user/passkey/register/finish?name=laptop', await create(begin.body.data.options))
      expect(finish.status).toBe(200)
      const listed = await api('GET', '/api/user/passkey')
      expect(listed.body.data).toMatchObject({ enabled: true, passkeys: [{ name: 'laptop', last_used_at: null }] })

      // a second registration of the same authenticator is excluded by the browser itself
      const again = await api('POST', '/api/user/passkey/register/begin')
      expect(again.body.data.options.excludeCredentials).toHaveLength(1)

      await api('GET', '/api/user/logout')
      expect((await api('GET', '/api/user/session')).body.data).toBeNull()
      const loginBegin = await api('POST', '/api/user/passkey/login/begin')
      expect(loginBegin.body.data.options.allowCredentials ?? []).toEqual([]) // discoverable: no username asked
      const assertion = await get(loginBegin.body.data.options)
      const signedIn = await api('POST', '/api/user/passkey/login/finish', assertion)
      expect([signedIn.status, signedIn.body.data.username]).toEqual([200, 'pat'])
      expect((await api('GET', '/api/user/session')).body.data.username).toBe('pat')

      const [row] = await app.deps.repos.secondFactors.passkeys((await app.deps.repos.users.findByUsername('pat'))!.id)
      expect(row!.counter).toBeGreaterThan(0)
      expect(row!.lastUsedAt).toBeGreaterThan(0)
      // the same assertion again: its challenge is spent
      const replay = await api('POST', '/api/user/passkey/login/finish', assertion)
      expect([replay.status, replay.body.data]).toEqual([400, { code: 'passkey_invalid' }])
    },
    E2E_TIMEOUT,
  )

  test(
    'a passkey verifies the session for a sensitive action; an admin resets the passkeys',
    async () => {
      const begin = await api('POST', '/api/user/passkey/verify/begin')
      expect(begin.body.data.options.allowCredentials).toHaveLength(1)
      const verified = await api('POST', '/api/user/passkey/verify/finish', await get(begin.body.data.options))
      expect([verified.status, verified.body.data.method]).toEqual([200, 'passkey'])
      expect((await api('DELETE', '/api/user/passkey?id=999999')).body.data).toEqual({ code: 'passkey_not_found' })

      await api('GET', '/api/user/logout')
      expect((await api('POST', '/api/user/login', { username: 'root', password: 'root-password-123' })).status).toBe(200)
      const pat = (await app.deps.repos.users.findByUsername('pat'))!
      expect((await api('DELETE', `/api/user/${pat.id}/reset_passkey`)).status).toBe(200)
      expect(await app.deps.repos.secondFactors.passkeys(pat.id)).toEqual([])
      // the authenticator still holds the credential; the server no longer knows it
      await api('GET', '/api/user/logout')
      const loginBegin = await api('POST', '/api/user/passkey/login/begin')
      const refused = await api('POST', '/api/user/passkey/login/finish', await get(loginBegin.body.data.options))
      expect([refused.status, refused.body.data]).toEqual([400, { code: 'passkey_invalid' }])
    },
    E2E_TIMEOUT,
  )
})
