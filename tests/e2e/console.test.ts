/**
 * The web console in Chromium against the compiled binary: the first visit creates root through /setup and
 * lands logged in on the dashboard; root then logs in through /login on a phone in dark mode. Controls are
 * found by role and label only, as a person (or a screen reader) finds them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { browserAvailable, E2E_TIMEOUT, sharedBrowser, openPage, screenshot, setupRoot, startGateway, type Gateway } from './harness'

const ROOT = { username: 'root', password: 'e2e-root-password-1' }
const ON_DASHBOARD = /\/dashboard\/?(\?.*)?$/

async function logIn(page: Page): Promise<void> {
  await page.getByLabel('Username').fill(ROOT.username)
  await page.getByLabel('Password', { exact: true }).fill(ROOT.password)
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  await page.waitForURL(ON_DASHBOARD)
}

const dashboardLink = (page: Page) => page.getByRole('navigation').getByRole('link', { name: 'Dashboard', exact: true })

describe.skipIf(!browserAvailable)('console: first visit', () => {
  let gw: Gateway
  let browser: Browser

  beforeAll(async () => {
    ;[gw, browser] = await Promise.all([startGateway(), sharedBrowser()])
  }, E2E_TIMEOUT)

  afterAll(async () => {
    await Promise.all([gw?.stop()])
  }, E2E_TIMEOUT)

  test('setup creates root and lands logged in on the dashboard', async () => {
    const { context, page, watch } = await openPage(browser, { viewport: 'desktop', colorScheme: 'light' })
    try {
      await page.goto(gw.url + '/setup')
      await page.getByLabel('Username').fill(ROOT.username)
      await page.getByLabel('Password', { exact: true }).fill(ROOT.password)
      await page.getByLabel('Confirm password').fill(ROOT.password)
      await screenshot(page, 'setup-desktop-light')
      await page.getByRole('button', { name: 'Create root account', exact: true }).click()

      // setup logs the new root in; a console that sends to /login instead is fine too
      await page.waitForURL(/\/(dashboard|login)\/?(\?.*)?$/)
      if (new URL(page.url()).pathname.startsWith('/login')) await logIn(page)
      await dashboardLink(page).waitFor()
      await screenshot(page, 'dashboard-desktop-light')

      const setup = await (await fetch(gw.url + '/api/setup')).json()
      expect(setup.data.status).toBe(true)
      // the session survives a reload
      await page.reload()
      await dashboardLink(page).waitFor()
      expect(page.url()).toMatch(ON_DASHBOARD)
      watch.assertClean()
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)

  test('root logs in on a phone in dark mode; the navigation is behind Menu', async () => {
    const setup = await (await fetch(gw.url + '/api/setup')).json()
    if (!setup.data.status) await setupRoot(gw, ROOT) // the test above failed before creating root
    const { context, page, watch } = await openPage(browser, { viewport: 'mobile', colorScheme: 'dark' })
    try {
      await page.goto(gw.url + '/login')
      await page.getByLabel('Username').waitFor()
      await screenshot(page, 'login-mobile-dark')
      await logIn(page)
      await screenshot(page, 'dashboard-mobile-dark')
      await page.getByRole('button', { name: 'Menu', exact: true }).click()
      await dashboardLink(page).waitFor()
      await screenshot(page, 'dashboard-mobile-dark-menu')
      watch.assertClean()
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)
})
