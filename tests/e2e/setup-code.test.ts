/**
 * First setup from the network in Chromium (issue #28, item 14): the page asks for the setup code, names where
 * it is, takes it from the link the server logged, and creates root with it. The browser reaches the gateway
 * through what looks like a reverse proxy on the same host (X-Forwarded-For on every request), which is how a
 * stranger's request reaches a gateway bound to loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { browserAvailable, E2E_TIMEOUT, sharedBrowser, openPage, screenshot, startGateway, type Gateway } from './harness'

const ROOT = { username: 'owner', password: 'e2e-owner-password-1' }

describe.skipIf(!browserAvailable)('console: setup from the network', () => {
  let gw: Gateway
  let browser: Browser

  beforeAll(async () => {
    ;[gw, browser] = await Promise.all([startGateway(), sharedBrowser()])
  }, E2E_TIMEOUT)

  afterAll(async () => {
    await Promise.all([gw?.stop()])
  }, E2E_TIMEOUT)

  test('the setup page asks for the code, filled from the logged link, and creates root with it', async () => {
    const link = /"setup_url":"([^"]+)"/.exec(gw.logs())?.[1]
    expect(link).toMatch(/\/setup\?code=[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/)
    const code = new URL(link!).searchParams.get('code')!
    const { context, page, watch } = await openPage(browser, { viewport: 'desktop', colorScheme: 'light' })
    try {
      await context.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.9' })
      await page.goto(`${gw.url}/setup?code=${code}`)
      const field = page.getByLabel('Setup code')
      await field.waitFor()
      expect(await field.inputValue()).toBe(code)
      expect(await page.getByText('journalctl -u tollgate', { exact: false }).count()).toBe(1)
      await page.getByLabel('Username').fill(ROOT.username)
      await page.getByLabel('Password', { exact: true }).fill(ROOT.password)
      await page.getByLabel('Confirm password').fill(ROOT.password)
      await screenshot(page, 'setup-code-desktop-light')
      await page.getByRole('button', { name: 'Create root account', exact: true }).click()
      await page.waitForURL(/\/(dashboard|login)\/?(\?.*)?$/)
      const setup = await (await fetch(gw.url + '/api/setup')).json()
      expect(setup.data).toMatchObject({ status: true, root_init: true })
      watch.assertClean()
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)
})
