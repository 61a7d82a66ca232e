import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { browserAvailable, E2E_TIMEOUT, sharedBrowser, openPage, screenshot, startGateway, type Gateway } from './harness'

/**
 * /api/docs in a real browser against the compiled binary: Swagger UI renders the instance's own OpenAPI
 * document from files the binary serves; no request leaves the machine, nothing breaks the page's strict CSP.
 */
describe.skipIf(!browserAvailable)('the API reference page', () => {
  let gw: Gateway
  let browser: Browser
  beforeAll(async () => {
    gw = await startGateway({ env: { ROOT_PASSWORD: 'docs-root-password' } })
    browser = await sharedBrowser()
  }, E2E_TIMEOUT)
  afterAll(async () => {
    await gw?.stop()
  })

  test('renders every operation from /api/openapi.json, loads nothing from outside, no console error', async () => {
    const { context, page, watch } = await openPage(browser)
    const fromOutside: string[] = []
    page.on('request', (request) => {
      if (!request.url().startsWith(gw.url) && !request.url().startsWith('data:')) fromOutside.push(request.url())
    })
    await page.goto(`${gw.url}/api/docs`)
    await page.getByRole('heading', { name: /Tollgate/ }).first().waitFor({ timeout: 20_000 })
    // the operations are listed, by tag sections (collapsed), with their paths
    await page.locator('h3', { hasText: /^relay/ }).first().click()
    await page.getByText('/v1/chat/completions', { exact: true }).first().waitFor()
    await page.locator('h3', { hasText: /^channel/ }).first().click()
    await page.getByText('/api/channel/{id}/keys', { exact: true }).first().waitFor()
    const doc = (await (await fetch(`${gw.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(doc.paths).length).toBeGreaterThan(60)
    await screenshot(page, 'api-docs-desktop-light')
    expect(fromOutside).toEqual([])
    watch.assertClean()
    await context.close()
  }, E2E_TIMEOUT)
})
