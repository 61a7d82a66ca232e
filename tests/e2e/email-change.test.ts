/**
 * Changing one's e-mail in Chromium: Profile → E-mail asks for a fresh check when the session's is stale (the
 * password, through the verify dialog), mails a code to the new address (the real SMTP server the mail tests start),
 * and the code typed back changes the address the page shows.
 */
import { afterAll, beforeAll, describe, expect, setSystemTime, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { addUser, USER_PASSWORD } from '../helpers/accounts'
import type { TestSmtp } from '../helpers/smtp-server'
import { startTestApp, type TestApp } from '../helpers/test-app'
import { withSmtp } from '../mail/mail-setup'
import { browserAvailable, E2E_TIMEOUT, sharedBrowser, openPage } from './harness'

describe.skipIf(!browserAvailable)('console: changing the e-mail', () => {
  let app: TestApp
  let smtp: TestSmtp
  let browser: Browser

  beforeAll(async () => {
    app = await startTestApp()
    ;({ smtp } = await withSmtp(app))
    browser = await sharedBrowser()
  }, E2E_TIMEOUT)

  afterAll(async () => {
    setSystemTime()
    await smtp?.stop()
    await app?.stop()
  }, E2E_TIMEOUT)

  test('a code to the new address, after the password, changes it', async () => {
    const uma = await addUser(app, { username: 'uma', email: 'uma@old.example' })
    const { context, page, watch } = await openPage(browser, { viewport: 'desktop' })
    try {
      await context.request.post(`${app.url}/api/user/login`, { data: { username: 'uma', password: USER_PASSWORD } })
      // the sign-in's check is stale by the time she changes the address (the server's clock; cookies last days)
      setSystemTime(new Date(Date.now() + 6 * 60_000))
      await page.goto(`${app.url}/profile`)
      const card = page.getByRole('region', { name: 'E-mail' })
      await card.getByText('Your address: uma@old.example').waitFor()
      // the first try is refused (403 secure_verification_required): that is what opens the dialog
      watch.expectResourceErrors({ url: '/api/user/email/code', status: 403 })
      await card.getByLabel('New e-mail address').fill('uma@new.example')
      await card.getByRole('button', { name: 'Send a code' }).click()
      const dialog = page.getByRole('dialog')
      await dialog.getByLabel('Password').fill(USER_PASSWORD)
      await dialog.getByRole('button', { name: 'Confirm' }).click()
      const { mail } = await smtp.next()
      expect(mail.to).toMatchObject({ text: 'uma@new.example' })
      const code = /\b(\d{6})\b/.exec(mail.text ?? '')![1]!
      await card.getByText('a code is on its way to uma@new.example').waitFor()
      await card.getByLabel('Code from the mail').fill(code)
      await card.getByRole('button', { name: 'Change e-mail' }).click()
      await card.getByText('Your address: uma@new.example').waitFor()
      expect((app.db.$client.query('SELECT email FROM users WHERE id = ?').get(uma.id) as { email: string }).email).toBe('uma@new.example')
      watch.assertClean()
    } finally {
      setSystemTime()
      await context.close()
    }
  }, E2E_TIMEOUT)
})
