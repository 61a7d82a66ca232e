/**
 * Every console page at a phone's (390 px) and a desktop's (1280 px) width, light and dark, in English and
 * Chinese, on an instance with data. Each page must render its heading in its language, with the theme's
 * background, nothing wider than the screen and no table scrolling sideways on a phone, without a console error
 * or a request leaving the machine. The screenshots (130 full-page PNGs, two fifths of this file's CPU) are
 * written only when asked (harness.ts, SCREENSHOTS): `SCREENSHOTS=1` (under tests/e2e/artifacts/) or
 * `SCREENSHOTS_DIR=$(mktemp -d) bun test tests/e2e/screens.test.ts`. `CONSOLE_DOCS=1` also writes the small screenshots of docs/console.md.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { ROOT, seedUsedInstance as seed } from './seed'
import {
  browserAvailable,
  E2E_TIMEOUT,
  sharedBrowser,
  loginContext,
  openPage,
  screenshot,
  setColorScheme,
  setViewport,
  startFakeOpenAI,
  startGateway,
  type OpenPageOptions,
  type FakeUpstream,
  type Gateway,
} from './harness'

const DOCS_DIR = join(import.meta.dir, '../../docs/console')
const PAGES = ['dashboard', 'playground', 'models', 'tokens', 'logs', 'midjourney', 'tasks', 'wallet', 'profile', 'channels', 'pricing', 'users', 'orders', 'plans', 'redemptions', 'settings']

describe.skipIf(!browserAvailable)('console: every page, both widths, both themes', () => {
  let gw: Gateway
  let upstream: FakeUpstream
  let browser: Browser

  beforeAll(async () => {
    ;[gw, upstream, browser] = await Promise.all([startGateway(), startFakeOpenAI(), sharedBrowser()])
    await seed(gw, upstream)
  }, E2E_TIMEOUT)

  afterAll(async () => {
    await Promise.all([gw?.stop(), upstream?.stop()])
  }, E2E_TIMEOUT)

  /** Open each page logged in as root and wait for its heading (the page rendered, not just the frame). */
  async function visitAll(options: OpenPageOptions, shot: (page: Page, name: string) => Promise<unknown>) {
    const { context, page, watch } = await openPage(browser, options)
    try {
      await loginContext(context, gw, ROOT)
      for (const name of PAGES) {
        await page.goto(`${gw.url}/${name}`)
        await page.getByRole('heading', { level: 1 }).first().waitFor()
        // tables and charts: wait until no skeleton row or busy table is left
        await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], .skeleton-row'), undefined, { timeout: 10_000 })
        await shot(page, name)
      }
      watch.assertClean()
    } finally {
      await context.close()
    }
  }

  // One load of each page per language, then its four looks: width and theme are the window's and the media
  // query's, which the console follows live (CSS, and the dashboard chart's matchMedia listener), so resizing
  // the loaded page shows what a load at that size shows, for a quarter of the page loads.
  for (const [locale, lang] of [['en-US', 'en'], ['zh-CN', 'zh-CN']] as const) {
    test(`${lang}: every page at 390 and 1280 px, light and dark`, async () => {
      await visitAll({ viewport: 'desktop', colorScheme: 'light', locale }, async (page, name) => {
        for (const viewport of ['desktop', 'mobile'] as const) {
          await setViewport(page, viewport)
          for (const colorScheme of ['light', 'dark'] as const) {
            await setColorScheme(page, colorScheme)
            const look = { name, viewport, colorScheme }
            expect({ ...look, lang: await page.locator('html').getAttribute('lang') }).toEqual({ ...look, lang })
            await screenshot(page, `page-${name}-${lang}-${viewport}-${colorScheme}`)
            // the page's own background follows the theme, not just a panel
            const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
            expect({ ...look, dark: isDark(background) }).toEqual({ ...look, dark: colorScheme === 'dark' })
            // nothing wider than the screen, and at 390 px no table scrolls sideways either (they are cards)
            const overflow = await page.evaluate(() => ({
              page: document.documentElement.scrollWidth - window.innerWidth,
              tables: [...document.querySelectorAll('.table-wrap')].filter((wrap) => innerWidth < 640 && wrap.scrollWidth > wrap.clientWidth + 1).length,
            }))
            expect({ ...look, overflow }).toEqual({ ...look, overflow: { page: 0, tables: 0 } })
          }
        }
      })
    }, E2E_TIMEOUT * 4)
  }

  test('the pages before login', async () => {
    const { context, page, watch } = await openPage(browser, { viewport: 'desktop', colorScheme: 'light' })
    try {
      for (const name of ['login', 'register']) {
        await page.goto(`${gw.url}/${name}`)
        await page.getByRole('heading', { level: 1 }).waitFor()
        await screenshot(page, `page-${name}`)
      }
      watch.assertClean()
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)

  test.skipIf(!process.env.CONSOLE_DOCS)('docs/console.md screenshots', async () => {
    mkdirSync(DOCS_DIR, { recursive: true })
    await visitAll({ viewport: 'desktop', colorScheme: 'light', locale: 'en-US' }, (page, name) => page.screenshot({ path: join(DOCS_DIR, `${name}.png`) }))
    // the dialog a new token opens: the key once, and the client setups
    const { context, page } = await openPage(browser, { viewport: 'desktop', colorScheme: 'light' })
    try {
      await loginContext(context, gw, ROOT)
      await page.goto(`${gw.url}/tokens`)
      await page.getByRole('button', { name: 'New token' }).first().click()
      await page.getByRole('dialog').getByLabel('Name', { exact: true }).fill('docs')
      await page.getByRole('dialog').getByRole('button', { name: 'Create', exact: true }).click()
      const modal = page.getByRole('dialog', { name: 'Your new key' })
      await modal.getByRole('tab', { name: 'Claude Code' }).click()
      await page.screenshot({ path: join(DOCS_DIR, 'token-key.png') })
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT * 2)
})

function isDark(rgb: string): boolean {
  const [r = 255, g = 255, b = 255] = rgb.match(/\d+/g)?.map(Number) ?? []
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128
}
