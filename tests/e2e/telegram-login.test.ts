/**
 * Telegram's login widget in Chromium: the login page loads the widget's script (a fake of telegram.org reached
 * through PROVIDER_ENDPOINTS, allowed by the page's CSP only while Telegram sign-in is on), its frame's button sends
 * the browser to /oauth/telegram with the data signed as Telegram signs it, and the console signs up; then a
 * password user binds Telegram from the profile through the same widget (/oauth/telegram/bind).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { addUser, as, login, USER_PASSWORD } from '../helpers/accounts'
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-oauth/telegram'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { browserAvailable, E2E_TIMEOUT, sharedBrowser, openPage } from './harness'

const BOT = { name: 'TollgateE2EBot', token: '5550001:AAE-e2e-telegram-bot-token-0123456789' }

describe.skipIf(!browserAvailable)('console: Telegram login widget', () => {
  let app: TestApp
  let telegram: FakeTelegram
  let browser: Browser
  const bindingsOf = (userId: number) => app.db.$client.query('SELECT provider, external_id FROM user_bindings WHERE user_id = ?').all(userId)

  beforeAll(async () => {
    telegram = startFakeTelegram(BOT, { id: 424242, first_name: 'Tess', username: 'tess_tg' })
    app = await startTestApp({ PROVIDER_ENDPOINTS: JSON.stringify({ telegram: telegram.url }) })
    const root = as(await login(app))
    for (const [key, value] of Object.entries({ RegisterEnabled: true, TelegramOAuthEnabled: true, TelegramBotName: BOT.name, TelegramBotToken: BOT.token })) {
      expect((await call(app, 'PUT', '/api/option/', { key, value }, root)).status).toBe(200)
    }
    browser = await sharedBrowser()
  }, E2E_TIMEOUT)

  afterAll(async () => {
    await app?.stop()
    telegram?.stop()
  }, E2E_TIMEOUT)

  test('signs up from the login page through the widget', async () => {
    const { context, page, watch } = await openPage(browser, { viewport: 'desktop' })
    try {
      await page.goto(`${app.url}/login`)
      await page.getByRole('group', { name: 'Sign in with Telegram' }).waitFor()
      await page.frameLocator('iframe[title="Telegram Login"]').getByRole('button', { name: 'Log in as Tess' }).click()
      await page.waitForURL(`${app.url}/dashboard`)
      const self = await page.evaluate(async () => ((await (await fetch('/api/user/self')).json()) as { data: { id: number; username: string } }).data)
      expect(self.username).toBe('tess_tg')
      expect(bindingsOf(self.id)).toEqual([{ provider: 'telegram', external_id: '424242' }])
      // the frame was drawn for this bot, on this origin
      expect(telegram.embeds.at(-1)).toEqual({ bot: BOT.name, origin: app.url })
      watch.assertClean()
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)

  test('a password user binds Telegram from the profile', async () => {
    const carol = await addUser(app, { username: 'carol' })
    telegram.account = { id: 515151, first_name: 'Carol' }
    const { context, page, watch } = await openPage(browser, { viewport: 'desktop' })
    try {
      await context.request.post(`${app.url}/api/user/login`, { data: { username: 'carol', password: USER_PASSWORD } })
      await page.goto(`${app.url}/profile`)
      const card = page.getByRole('region', { name: 'Sign-in accounts' })
      await card.getByRole('group', { name: 'Sign in with Telegram' }).waitFor()
      await card.frameLocator('iframe[title="Telegram Login"]').getByRole('button', { name: 'Log in as Carol' }).click()
      await page.waitForURL(`${app.url}/profile`)
      await card.getByText('Bound (account 515151)').waitFor()
      expect(bindingsOf(carol.id)).toEqual([{ provider: 'telegram', external_id: '515151' }])
      watch.assertClean()
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)
})
