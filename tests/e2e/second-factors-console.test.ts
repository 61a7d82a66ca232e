/**
 * The console's second factors in Chromium: enrol TOTP on the profile (the secret read off the page as a user
 * types it into an app), sign in with a code and with a backup code, a reused backup code refused in words; add a
 * passkey with the virtual authenticator and sign in with it from the login page.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { Role, UserStatus } from '../../src/db/repos/user-roles'
import { addUser, USER_PASSWORD } from '../helpers/accounts'
import { startTestApp, type TestApp } from '../helpers/test-app'
import { totpCode } from '../helpers/totp'
import { browserAvailable, BROWSER_HEADERS, E2E_TIMEOUT, sharedBrowser } from './harness'

describe.skipIf(!browserAvailable)('console: 2FA and passkeys', () => {
  let app: TestApp
  let browser: Browser
  let context: BrowserContext | undefined
  let page: Page
  let origin = ''

  beforeAll(async () => {
    ;[app, browser] = await Promise.all([startTestApp(), sharedBrowser()])
    origin = app.url.replace('127.0.0.1', 'localhost') // a domain for WebAuthn's RP ID
    context = await browser.newContext({ extraHTTPHeaders: BROWSER_HEADERS })
    page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    })
    await addUser(app, { username: 'tess', role: Role.user, status: UserStatus.enabled })
  }, E2E_TIMEOUT)
  afterAll(async () => {
    await context?.close() // the browser is the worker's: leave it as found
    await app?.stop()
  })

  const passwordStep = async () => {
    await page.goto(`${origin}/login`)
    await page.getByLabel('Username').fill('tess')
    await page.getByLabel('Password', { exact: true }).fill(USER_PASSWORD)
    await page.getByRole('button', { name: 'Log in', exact: true }).click()
  }
  const logOut = () => page.evaluate(() => fetch('/api/user/logout'))

  test(
    'enrol on the profile, then sign in with a code, then with a backup code; a reused one is refused',
    async () => {
      await passwordStep()
      await page.waitForURL(/\/dashboard/)
      await page.goto(`${origin}/profile`)
      await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click()
      await page.getByRole('img', { name: 'QR code for your authenticator app' }).locator('svg').waitFor()
      const secret = (await page.getByLabel('Secret', { exact: true }).textContent())!.trim()
      const backup = (await page.locator('pre.code-block').textContent())!.trim().split('\n')
      expect(backup).toHaveLength(10)
      await page.getByLabel('Code from the app', { exact: true }).fill(totpCode(secret))
      await page.getByRole('button', { name: 'Turn on', exact: true }).click()
      await page.getByText('On: 10 backup codes left.').waitFor()

      await logOut()
      await passwordStep()
      await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor()
      await page.getByLabel('Code or backup code').fill(totpCode(secret, Date.now() + 30_000))
      await page.getByRole('button', { name: 'Verify' }).click()
      await page.waitForURL(/\/dashboard/)

      for (const outcome of ['signed in', 'refused'] as const) {
        await logOut()
        await passwordStep()
        await page.getByLabel('Code or backup code').fill(backup[0]!)
        await page.getByRole('button', { name: 'Verify' }).click()
        if (outcome === 'signed in') await page.waitForURL(/\/dashboard/)
        else await page.getByRole('alert').getByText('That code is wrong, already used, or expired.').waitFor()
      }
    },
    E2E_TIMEOUT,
  )

  test(
    'add a passkey on the profile, then sign in with it from the login page',
    async () => {
      const tess = (await app.deps.repos.users.findByUsername('tess'))!
      await app.deps.repos.secondFactors.deleteTotp(tess.id) // as an admin's reset would: the password alone signs in
      await logOut()
      await passwordStep()
      await page.waitForURL(/\/dashboard/)
      await page.goto(`${origin}/profile`)
      await page.getByText('No passkeys yet.').waitFor()
      await page.getByLabel('Name (optional)').fill('virtual key')
      await page.getByRole('button', { name: 'Add a passkey' }).click()
      await page.getByRole('button', { name: 'Remove virtual key' }).waitFor()

      await logOut()
      await page.goto(`${origin}/login`)
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
      await page.waitForURL(/\/dashboard/)
      expect((await app.deps.repos.secondFactors.passkeys(tess.id))[0]!.lastUsedAt).toBeGreaterThan(0)
    },
    E2E_TIMEOUT,
  )
})
