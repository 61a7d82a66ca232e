/**
 * The public face in Chromium, on the compiled binary: home (notice), About, the legal pages and the model
 * square logged out; the playground logged in. Every operator text carries a <script>, an onerror handler
 * and a javascript: link, and so does a model's answer: none may reach the page. Screenshots of each page at
 * 1280 and 390 px, light and dark, English and Chinese land in tests/e2e/artifacts/face-*.png with SCREENSHOTS=1.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import {
  apiLogin,
  browserAvailable,
  E2E_TIMEOUT,
  sharedBrowser,
  loginContext,
  openAIChannel,
  openPage,
  screenshot,
  setColorScheme,
  setupRoot,
  setViewport,
  startFakeOpenAI,
  startGateway,
  type FakeUpstream,
  type Gateway,
  type PageWatch,
} from './harness'

const ROOT = { username: 'root', password: 'e2e-root-password-1' }
const ATTACK = '\n\n<script>window.__pwned = "script"</script> <img src="data:," onerror="window.__pwned = \'onerror\'"> [click me](javascript:window.__pwned=\'link\')'
const TEXTS: Record<string, string> = {
  Notice: `**Maintenance** on Sunday 02:00 UTC.${ATTACK}`,
  About: `# About Example Lab\n\nWe serve models for the **lab**.\n\n\`\`\`bash\ncurl https://gateway.example/v1/models\n\`\`\`${ATTACK}`,
  'legal.user_agreement': `## 1. Terms\n\nBe kind to the upstreams.${ATTACK}`,
  'legal.privacy_policy': `## Privacy\n\nLogs are kept 30 days.${ATTACK}`,
  Footer: '© 2026 Example Lab',
}
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'deepseek-chat', 'qwen-max', 'text-embedding-3-small', 'dall-e-3']
const ANSWER = `Here is code:\n\n\`\`\`js\nconsole.log("hi")\n\`\`\`\n\n**done**${ATTACK}`

/** Nothing of the attacks survived: no script, handler or javascript: link in the page, and none ran. */
async function assertSanitized(page: Page, where: string): Promise<void> {
  const found = await page.evaluate(() => ({
    scripts: document.querySelectorAll('.markdown script').length,
    handlers: [...document.querySelectorAll('.markdown *')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
    jsLinks: [...document.querySelectorAll('.markdown a')].filter((a) => /^\s*javascript:/i.test(a.getAttribute('href') ?? '')).length,
    pwned: (window as unknown as { __pwned?: string }).__pwned ?? null,
  }))
  expect({ where, ...found }).toEqual({ where, scripts: 0, handlers: 0, jsLinks: 0, pwned: null })
}

/** Chromium names the inline handler DOMPurify's inert parse met (it blocks it: the CSP is the second wall); any other error counts. */
function assertClean(watch: PageWatch): void {
  const blockedByCsp = (line: string) => line.includes('inline event handler') && line.includes("script-src 'self'")
  const rest = watch.consoleErrors.filter((line) => !blockedByCsp(line))
  watch.consoleErrors.length = 0
  watch.consoleErrors.push(...rest)
  watch.assertClean()
}

describe.skipIf(!browserAvailable)('the public face and the playground', () => {
  let gw: Gateway
  let upstream: FakeUpstream
  let browser: Browser

  beforeAll(async () => {
    ;[gw, upstream, browser] = await Promise.all([startGateway(), startFakeOpenAI({ models: MODELS }), sharedBrowser()])
    await setupRoot(gw, ROOT)
    const root = await apiLogin(gw, ROOT)
    const must = async (method: string, path: string, body?: unknown) => {
      const result = await root.call(method, path, body)
      if (result.status !== 200) throw new Error(`${method} ${path}: ${result.status} ${JSON.stringify(result.body)}`)
    }
    await must('POST', '/api/channel/', openAIChannel(upstream, { name: 'main', models: MODELS }))
    for (const [key, value] of Object.entries({ ...TEXTS, SystemName: 'Example Lab', PublicPricingEnabled: true })) await must('PUT', '/api/option/', { key, value })
  }, E2E_TIMEOUT)

  afterAll(async () => {
    await Promise.all([gw?.stop(), upstream?.stop()])
  }, E2E_TIMEOUT)

  const PUBLIC_PAGES = [
    { path: '/', name: 'home', ready: (page: Page) => page.locator('.notice .markdown strong').waitFor() },
    { path: '/about', name: 'about', ready: (page: Page) => page.locator('.markdown pre').waitFor() },
    { path: '/user-agreement', name: 'agreement', ready: (page: Page) => page.locator('.markdown h2').waitFor() },
    { path: '/privacy-policy', name: 'privacy', ready: (page: Page) => page.locator('.markdown h2').waitFor() },
    { path: '/pricing', name: 'models', ready: (page: Page) => page.locator('.model-card .vendor-icon svg').first().waitFor() },
  ]

  // One load of each page per language, then its four looks: width and theme are the window's and the media
  // query's, which the pages follow live (CSS), so resizing the loaded page shows what a load at that size shows
  for (const locale of ['en-US', 'zh-CN']) {
    test(`logged out: home, about, legal pages, models (390 and 1280 px, light and dark, ${locale})`, async () => {
      const { context, page, watch } = await openPage(browser, { locale })
      try {
        for (const { path, name, ready } of PUBLIC_PAGES) {
          await page.goto(gw.url + path)
          await ready(page)
          await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'))
          for (const viewport of ['desktop', 'mobile'] as const) {
            await setViewport(page, viewport)
            for (const colorScheme of ['light', 'dark'] as const) {
              await setColorScheme(page, colorScheme)
              const look = { path, viewport, colorScheme }
              await assertSanitized(page, path)
              // the instance's name and mark on every public page; the legal links in the footer
              expect({ ...look, brand: await page.locator('.public-top .brand').textContent() }).toEqual({ ...look, brand: 'Example Lab' })
              expect({ ...look, legal: await page.locator('.site-legal a').count() }).toEqual({ ...look, legal: 2 })
              const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
              expect({ ...look, overflow }).toEqual({ ...look, overflow: 0 })
              await screenshot(page, `face-${name}-${viewport}-${colorScheme}-${locale}`)
            }
          }
        }
        assertClean(watch)
      } finally {
        await context.close()
      }
    }, E2E_TIMEOUT * 2)
  }

  test('the model square: prices in money with no ratios, search and vendor filter, visible at 390 px; a real favicon', async () => {
    const { context, page, watch } = await openPage(browser, { viewport: 'mobile' })
    try {
      await page.goto(gw.url + '/pricing')
      const card = page.locator('.model-card', { hasText: 'gpt-4o-mini' })
      await card.waitFor()
      expect(await card.textContent()).toContain('$0.15') // gpt-4o-mini's shipped input price per 1M
      expect(await card.locator('.model-price').isVisible()).toBe(true)
      expect(await page.locator('main').textContent()).not.toMatch(/ratio/i)
      await page.getByLabel('Search').fill('claude')
      expect(await page.locator('.model-card-name').allTextContents()).toEqual(['claude-sonnet-4-5'])
      await page.getByLabel('Search').fill('')
      await page.getByRole('button', { name: /^Google/ }).click()
      expect(await page.locator('.model-card-name').allTextContents()).toEqual(['gemini-2.5-pro'])
      const icon = await page.request.get(gw.url + '/favicon.ico')
      expect({ status: icon.status(), type: icon.headers()['content-type'] }).toEqual({ status: 200, type: 'image/svg+xml' })
      assertClean(watch)
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)

  // one context per language, logged in once; the flow again from a fresh load at each width and theme
  for (const locale of ['en-US', 'zh-CN']) {
    test(`logged in: the playground renders Markdown safely, copies, regenerates, shows the request (390 and 1280 px, light and dark, ${locale})`, async () => {
      const { context, page, watch } = await openPage(browser, { locale })
      try {
        await loginContext(context, gw, ROOT)
        for (const viewport of ['desktop', 'mobile'] as const) {
          await setViewport(page, viewport)
          for (const colorScheme of ['light', 'dark'] as const) {
            await setColorScheme(page, colorScheme)
            upstream.setBehavior({ text: ANSWER })
            await page.goto(gw.url + '/playground')
            const zh = locale === 'zh-CN'
            await page.getByLabel(zh ? '消息' : 'Message', { exact: true }).fill('Show me code')
            await page.getByRole('button', { name: zh ? '发送' : 'Send', exact: true }).click()
            const log = page.getByRole('log')
            await log.locator('.pg-answer pre code').waitFor()
            expect(await log.locator('.pg-answer pre code').textContent()).toBe('console.log("hi")\n')
            await assertSanitized(page, 'playground')
            await log.getByRole('button', { name: zh ? '重新生成' : 'Regenerate' }).waitFor()
            upstream.setBehavior({ text: 'A second answer.' })
            await log.getByRole('button', { name: zh ? '重新生成' : 'Regenerate' }).click()
            await log.getByText('A second answer.').waitFor()
            expect(await log.locator('.pg-turn-assistant').count()).toBe(1) // in place of the first answer
            await page.locator('.pg-exchange summary').click()
            const request = await page.locator('.pg-exchange pre').first().textContent()
            expect(JSON.parse(request!)).toMatchObject({ model: expect.any(String), stream: true, messages: [{ role: 'user', content: 'Show me code' }] })
            // the stream's events as received: the answer's chunks, then the usage
            await page.waitForFunction(() => /"usage"/.test(document.querySelectorAll('.pg-exchange pre')[1]?.textContent ?? ''))
            expect(await page.locator('.pg-exchange h3').nth(1).textContent()).toMatch(/HTTP 200/)
            await log.getByText(zh ? /输入 .* 输出/ : /prompt .* completion tokens/i).first().waitFor({ timeout: 15_000 })
            await screenshot(page, `face-playground-${viewport}-${colorScheme}-${locale}`)
          }
        }
        assertClean(watch)
      } finally {
        await context.close()
      }
    }, E2E_TIMEOUT * 2)
  }
})
