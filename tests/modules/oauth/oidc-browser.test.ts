/**
 * OIDC sign-in against a real OpenID Provider (panva's oidc-provider, on loopback) through Chromium: discovery from
 * the issuer's well-known document, the provider's own login and consent pages, its redirect back with code, state
 * and iss, then the callback as the console makes it. The provider itself refuses a redirect URI it does not know.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { addUser, as, login } from '../../helpers/accounts'
import { startOidcProvider, type TestProvider } from '../../helpers/fake-oauth/oidc-provider'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { browserAvailable, BROWSER_HEADERS, E2E_TIMEOUT, sharedBrowser } from '../../e2e/harness'

const CLIENT = { id: 'tollgate', secret: 'oidc-client-secret-0123456789abcdef' }
let op: TestProvider
let app: TestApp
let browser: Browser
let root: Record<string, string>

beforeAll(async () => {
  app = await startTestApp()
  op = await startOidcProvider({ ...CLIENT, redirectUri: `${app.url}/oauth/oidc` })
  root = as(await login(app))
  const options = { 'oidc.enabled': true, 'oidc.client_id': CLIENT.id, 'oidc.client_secret': CLIENT.secret, 'oidc.well_known': `${op.issuer}/.well-known/openid-configuration`, 'oidc.display_name': 'Test IdP', RegisterEnabled: true }
  for (const [key, value] of Object.entries(options)) expect((await call(app, 'PUT', '/api/option/', { key, value }, root)).status).toBe(200)
  if (browserAvailable) browser = await sharedBrowser()
}, E2E_TIMEOUT)
afterAll(async () => {
  await op?.stop()
  await app?.stop()
})

/** In a fresh browser: start at /api/oauth/state, sign in at the provider's pages as `loginName`, come back, call the callback. */
async function signInThroughBrowser(loginName: string, onReturn?: (query: string) => string) {
  const context = await browser.newContext({ extraHTTPHeaders: BROWSER_HEADERS })
  const page = await context.newPage()
  await page.route(/fonts\.googleapis\.com/, (route) => route.abort())
  // The provider's redirect lands on the console's callback page, which makes the callback call itself and would
  // race the test's own (a navigation reached by a redirect is never routed, so the page cannot be swapped for an
  // empty one): every callback call but the test's, marked by a header, is refused before it leaves the browser.
  await context.route((url) => url.pathname === '/api/oauth/oidc', (route) => (route.request().headers()['x-test-callback'] ? route.continue() : route.abort()))
  try {
    await page.goto(`${app.url}/api/status`)
    const start = await page.evaluate(async () => (await fetch('/api/oauth/state?provider=oidc')).json())
    expect(start.success).toBe(true)
    await page.goto(start.data.authorize_url)
    await page.fill('input[name="login"]', loginName)
    await page.fill('input[name="password"]', 'any')
    await page.click('button[type="submit"]')
    await page.waitForSelector('button:has-text("Continue")')
    await page.click('button:has-text("Continue")')
    await page.waitForURL((url) => url.href.startsWith(`${app.url}/oauth/oidc?`))
    const query = new URL(page.url()).search
    const finished = await page.evaluate(async (q) => {
      const response = await fetch(`/api/oauth/oidc${q}`, { headers: { 'x-test-callback': '1' } })
      return { status: response.status, body: await response.json() }
    }, onReturn ? onReturn(query) : query)
    const self = await page.evaluate(async () => (await fetch('/api/user/self')).status)
    return { ...finished, query, self }
  } finally {
    await context.close()
  }
}

test.skipIf(!browserAvailable)('status shows the OIDC button by its name', async () => {
  const { body } = await call(app, 'GET', '/api/status')
  expect(body.data).toMatchObject({ oidc_enabled: true, oidc_client_id: CLIENT.id, oidc_display_name: 'Test IdP' })
})

test.skipIf(!browserAvailable)('a first OIDC sign-in signs up with the verified e-mail, the next signs in as the same user', async () => {
  const first = await signInThroughBrowser('erin')
  expect(first.status).toBe(200)
  expect(first.body.data).toMatchObject({ action: 'register', username: 'erin', display_name: 'OIDC erin' })
  expect(first.self).toBe(200)
  expect(first.query).toContain('iss=')
  const row = app.db.$client.query('SELECT u.email, b.external_id FROM users u JOIN user_bindings b ON b.user_id = u.id WHERE b.provider = ?').get('oidc')
  expect(row).toEqual({ email: 'erin@example.com', external_id: 'erin' })

  const again = await signInThroughBrowser('erin')
  expect(again.body.data).toMatchObject({ action: 'login', id: first.body.data.id })
}, E2E_TIMEOUT)

test.skipIf(!browserAvailable)('a callback whose state was changed is refused, and the session is not started', async () => {
  const res = await signInThroughBrowser('frank', (q) => q.replace(/state=[^&]+/, 'state=tampered'))
  expect([res.status, res.body.data.code]).toEqual([400, 'oauth_state_invalid'])
  expect(res.self).toBe(401)
}, E2E_TIMEOUT)

test.skipIf(!browserAvailable)('an unverified e-mail that a user here has is refused', async () => {
  await addUser(app, { username: 'grace', email: 'unverified-grace@example.com' })
  const res = await signInThroughBrowser('unverified-grace')
  expect([res.status, res.body.data.code]).toEqual([409, 'oauth_email_unverified'])
}, E2E_TIMEOUT)
