/**
 * WeChat sign-in in Chromium: the login page shows the official account's QR code (its origin allowed by the page's
 * CSP) and a code field; the code the account replied (a fake WeChat server, new-api's protocol) signs up. Then a
 * password user binds WeChat from the profile with another code; a wrong code is worded, nothing bound.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { addUser, as, login, USER_PASSWORD } from '../helpers/accounts'
import { startFakeWeChat, type FakeWeChat } from '../helpers/fake-oauth/wechat'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { browserAvailable, E2E_TIMEOUT, sharedBrowser, openPage } from './harness'

const TOKEN = 'wechat-e2e-token-0123456789'

describe.skipIf(!browserAvailable)('console: WeChat sign-in', () => {
  let app: TestApp
  let wechat: FakeWeChat
  let browser: Browser
  const owner = (openid: string) => (app.db.$client.query("SELECT user_id FROM user_bindings WHERE provider = 'wechat' AND external_id = ?").get(openid) as { user_id: number } | null)?.user_id

  beforeAll(async () => {
    wechat = startFakeWeChat(TOKEN)
    app = await startTestApp()
    const root = as(await login(app))
    const options = { RegisterEnabled: true, WeChatAuthEnabled: true, WeChatServerAddress: wechat.url, WeChatServerToken: TOKEN, WeChatAccountQRCodeImageURL: `${wechat.url}/qr.png` }
    for (const [key, value] of Object.entries(options)) expect((await call(app, 'PUT', '/api/option/', { key, value }, root)).status).toBe(200)
    browser = await sharedBrowser()
  }, E2E_TIMEOUT)

  afterAll(async () => {
    await app?.stop()
    wechat?.stop()
  }, E2E_TIMEOUT)

  test('the login page shows the QR code and signs up with the code', async () => {
    const { context, page, watch } = await openPage(browser, { viewport: 'desktop' })
    try {
      await page.goto(`${app.url}/login`)
      await page.getByRole('button', { name: 'Continue with WeChat' }).click()
      const form = page.getByRole('form', { name: 'WeChat code' })
      const qr = form.getByRole('img', { name: 'QR code of the WeChat official account' })
      await qr.waitFor()
      // the image loaded: the CSP let its origin in
      await page.waitForFunction(() => (document.querySelector('.wechat-code img') as HTMLImageElement | null)?.naturalWidth === 1)
      await form.getByLabel('Code from WeChat').fill(wechat.issue('oE2E-openid-1'))
      await form.getByRole('button', { name: 'Sign in with WeChat' }).click()
      await page.waitForURL(`${app.url}/dashboard`)
      const self = await page.evaluate(async () => ((await (await fetch('/api/user/self')).json()) as { data: { id: number } }).data)
      expect(owner('oE2E-openid-1')).toBe(self.id)
      watch.assertClean()
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)

  test('a password user binds WeChat from the profile; a wrong code is worded', async () => {
    const erin = await addUser(app, { username: 'erin' })
    const { context, page } = await openPage(browser, { viewport: 'desktop' })
    try {
      await context.request.post(`${app.url}/api/user/login`, { data: { username: 'erin', password: USER_PASSWORD } })
      await page.goto(`${app.url}/profile`)
      const card = page.getByRole('region', { name: 'Sign-in accounts' })
      await card.getByRole('button', { name: 'Bind WeChat' }).click()
      const form = card.getByRole('form', { name: 'WeChat code' })
      await form.getByLabel('Code from WeChat').fill('000000')
      await form.getByRole('button', { name: 'Bind WeChat' }).click()
      await form.getByText('This WeChat code is wrong or has expired').waitFor()
      expect(owner('oE2E-openid-2')).toBeUndefined()
      await form.getByLabel('Code from WeChat').fill(wechat.issue('oE2E-openid-2'))
      await form.getByRole('button', { name: 'Bind WeChat' }).click()
      await card.getByText('Bound (account oE2E-openid-2)').waitFor()
      expect(owner('oE2E-openid-2')).toBe(erin.id)
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)
})
