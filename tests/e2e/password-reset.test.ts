/**
 * Password reset by mail in Chromium, against the built binary: a real SMTP server (STARTTLS, AUTH; the binary
 * trusts its certificate through NODE_EXTRA_CA_CERTS) and the Turnstile fake (PROVIDER_ENDPOINTS). The forgot page
 * loads the widget, the mail is parsed, its link opened in the browser, the new password chosen there; the link
 * then refuses a second use.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { type FakeTurnstile, startFakeTurnstile } from '../helpers/fake-turnstile'
import { startTestSmtp, type TestSmtp } from '../helpers/smtp-server'
import { browserAvailable, E2E_TIMEOUT, sharedBrowser, openPage, startGateway, type Gateway } from './harness'

const ROOT_PASSWORD = 'e2e-root-password-1'
const SECRET = 'turnstile-e2e-secret'

describe.skipIf(!browserAvailable)('console: password reset by mail', () => {
  let gw: Gateway
  let browser: Browser
  let smtp: TestSmtp
  let fake: FakeTurnstile
  let cookie = ''

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(gw.url + path, { method, headers: { 'content-type': 'application/json', origin: gw.url, cookie }, body: body === undefined ? undefined : JSON.stringify(body) })
    return { status: res.status, body: (await res.json()) as any, headers: res.headers }
  }

  beforeAll(async () => {
    smtp = await startTestSmtp({ user: 'mailer', pass: 'smtp-pass-123' })
    fake = startFakeTurnstile(SECRET)
    ;[gw, browser] = await Promise.all([
      startGateway({ env: { ROOT_PASSWORD, NODE_EXTRA_CA_CERTS: join(import.meta.dir, '../fixtures/tls/smtp-test.crt'), PROVIDER_ENDPOINTS: JSON.stringify({ turnstile: fake.url }) } }),
      sharedBrowser(),
    ])
    const login = await api('POST', '/api/user/login', { username: 'root', password: ROOT_PASSWORD })
    cookie = login.headers.getSetCookie()[0]!.split(';')[0]!
    const options = {
      SMTPServer: 'localhost', SMTPPort: smtp.port, SMTPAccount: 'mailer', SMTPToken: 'smtp-pass-123', SMTPFrom: 'noreply@example.com',
      ServerAddress: gw.url, RegisterEnabled: true, EmailVerificationEnabled: true,
      TurnstileSiteKey: 'site-key', TurnstileSecretKey: SECRET, TurnstileCheckEnabled: true,
    }
    for (const [key, value] of Object.entries(options)) expect((await api('PUT', '/api/option/', { key, value })).status).toBe(200)
    // an account with a verified address, registered through the API
    expect((await api('GET', `/api/verification?turnstile=${fake.issue()}&email=mia@example.com`)).status).toBe(200)
    const code = /\b(\d{6})\b/.exec((await smtp.next()).mail.text ?? '')![1]
    const registered = await api('POST', `/api/user/register?turnstile=${fake.issue()}`, { username: 'mia', password: 'old-password-1', email: 'mia@example.com', verification_code: code })
    expect(registered.status).toBe(200)
  }, E2E_TIMEOUT)

  afterAll(async () => {
    await Promise.all([gw?.stop(), smtp?.stop()])
    fake?.stop()
  }, E2E_TIMEOUT)

  test('forgot password → mail → link in the browser → new password; the link then refuses', async () => {
    const { context, page } = await openPage(browser, { viewport: 'desktop', colorScheme: 'light' })
    try {
      await page.goto(`${gw.url}/login`)
      await page.getByRole('link', { name: 'Forgot password?' }).click()
      await page.getByLabel('E-mail').fill('mia@example.com')
      await page.locator('[data-fake-turnstile="rendered"]').waitFor({ state: 'attached' }) // the widget's script came from the fake
      await page.getByRole('button', { name: 'Send reset link' }).click()
      await page.getByText('If an account has this address').waitFor()
      const { mail, secure } = await smtp.next()
      expect(secure).toBe(true)
      const link = /(http:\/\/\S+\/user\/reset\?\S+)/.exec(mail.text ?? '')![1]!
      expect(link.startsWith(gw.url)).toBe(true)
      await page.goto(link)
      await page.getByLabel('Password', { exact: true }).fill('new-password-22')
      await page.getByLabel('Confirm password').fill('new-password-22')
      await page.getByRole('button', { name: 'Set new password' }).click()
      await page.getByText('Password changed').waitFor()
      cookie = ''
      expect((await api('POST', `/api/user/login?turnstile=${fake.issue()}`, { username: 'mia@example.com', password: 'new-password-22' })).status).toBe(200)
      // the same link again, in the browser: refused, in words
      await page.goto(link)
      await page.getByLabel('Password', { exact: true }).fill('third-password-33')
      await page.getByLabel('Confirm password').fill('third-password-33')
      await page.getByRole('button', { name: 'Set new password' }).click()
      await page.getByRole('alert').filter({ hasText: 'already used' }).waitFor()
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)
})
