/**
 * A newcomer's first run, in Chromium from an empty data dir, with nothing but the browser and the pasted snippet:
 * setup (who is this for?), the dashboard's checklist, a channel whose models are fetched before it is saved,
 * prices or self-use mode, a key whose curl snippet answers in bash, a playground answer, and the checklist gone.
 * Once in English ("just me": self-use mode from setup) and once in Chinese ("the public": the unpriced notice's
 * self-use button). No API call or doc is used by the test; every page is watched for errors and outside requests.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { translate, type Locale, type MessageKey, type Params } from '../../src/ui/i18n/catalog'
import { browserAvailable, E2E_TIMEOUT, sharedBrowser, openPage, screenshot, startFakeOpenAI, startGateway, UPSTREAM_KEY, type FakeUpstream } from './harness'

const ROOT = { username: 'root', password: 'newcomer-password-1' }
const ANSWER = 'Hello, newcomer'

describe.skipIf(!browserAvailable)('a newcomer\'s first run, browser only', () => {
  // OpenAI's names have default prices; a self-hosted model's do not (the Chinese run's billing instance)
  const upstreams: Record<'self' | 'public', FakeUpstream> = {} as never
  let browser: Browser
  beforeAll(async () => {
    ;[upstreams.self, upstreams.public, browser] = await Promise.all([startFakeOpenAI(), startFakeOpenAI({ models: ['acme-chat-large', 'acme-chat-small'] }), sharedBrowser()])
    for (const upstream of Object.values(upstreams)) upstream.setBehavior({ text: ANSWER })
  }, E2E_TIMEOUT)
  afterAll(async () => {
    await Promise.all([...Object.values(upstreams).map((u) => u.stop())])
  }, E2E_TIMEOUT)

  for (const { locale, browserLocale, usage } of [
    { locale: 'en' as Locale, browserLocale: 'en-US', usage: 'self' as const },
    { locale: 'zh-CN' as Locale, browserLocale: 'zh-CN', usage: 'public' as const },
  ]) {
    test(`${locale}: setup → channel with fetched models → ${usage === 'self' ? 'self-use from setup' : 'self-use from the unpriced notice'} → key → snippet and playground answer`, async () => {
      const t = (key: MessageKey, params?: Params) => translate(locale, key, params)
      const upstream = upstreams[usage]
      const gw = await startGateway()
      const { context, page, watch } = await openPage(browser, { viewport: 'desktop', locale: browserLocale })
      try {
        // the start log says where setup is
        expect(gw.logs()).toContain('/setup?code=')
        await page.goto(gw.url + '/')
        await page.waitForURL(/\/setup$/)
        await page.getByLabel(t('auth.username')).fill(ROOT.username)
        await page.getByLabel(t('auth.password'), { exact: true }).fill(ROOT.password)
        await page.getByLabel(t('auth.confirmPassword')).fill(ROOT.password)
        await page.getByLabel(t(`firstRun.usage.${usage}`)).check()
        await screenshot(page, `newcomer-${locale}-setup`)
        await page.getByRole('button', { name: t('auth.setup.submit') }).click()
        await page.waitForURL(/\/dashboard$/)

        // the checklist: nothing done yet, its first link opens the New channel drawer
        const checklist = page.getByRole('region', { name: t('firstRun.checklist.title') })
        await checklist.getByText(t('firstRun.checklist.progress', { done: usage === 'self' ? 1 : 0, total: 4 })).waitFor()
        await screenshot(page, `newcomer-${locale}-checklist`)
        await checklist.getByRole('link', { name: t('firstRun.step.channelGo') }).click()
        const drawer = page.getByRole('dialog')
        await drawer.getByLabel(t('channels.field.type'), { exact: true }).selectOption({ label: 'OpenAI' })
        await drawer.getByLabel(t('channels.field.name'), { exact: true }).fill('my-upstream')
        await drawer.getByLabel(t('channels.field.key'), { exact: true }).fill(UPSTREAM_KEY)
        await drawer.getByLabel(t('channels.field.baseUrl'), { exact: true }).fill(upstream.url)
        // the models come from the upstream before anything is saved
        await drawer.getByRole('button', { name: t('channels.models.fetch') }).click()
        await drawer.getByText(t('channels.models.fromUpstream', { count: 2 })).waitFor()
        await drawer.getByRole('button', { name: t('channels.models.addAll', { count: 2 }) }).click()
        await screenshot(page, `newcomer-${locale}-channel-drawer`)
        await drawer.getByRole('button', { name: t('common.create'), exact: true }).click()
        await drawer.waitFor({ state: 'detached' })
        await page.getByRole('row', { name: /my-upstream/ }).waitFor()

        if (usage === 'public') {
          // billing: the models have no price; the notice offers the way out, in the browser
          const notice = page.getByRole('status').filter({ hasText: t('firstRun.unpriced.title', { count: 2 }) })
          await notice.waitFor()
          await screenshot(page, `newcomer-${locale}-unpriced`)
          await notice.getByRole('button', { name: t('firstRun.unpriced.selfUse') }).click()
          await notice.waitFor({ state: 'detached' })
        }

        await page.getByRole('link', { name: t('nav.dashboard'), exact: true }).click()
        await checklist.getByText(t('firstRun.checklist.progress', { done: 2, total: 4 })).waitFor()
        await checklist.getByRole('link', { name: t('firstRun.step.tokenGo') }).click()
        const tokenDrawer = page.getByRole('dialog')
        await tokenDrawer.getByLabel(t('tokens.form.name'), { exact: true }).fill('laptop')
        await tokenDrawer.getByLabel(t('tokens.form.unlimited')).check()
        await tokenDrawer.getByRole('button', { name: t('common.create'), exact: true }).click()
        const modal = page.getByRole('dialog', { name: t('tokens.key.title') })
        await modal.getByRole('tab', { name: 'curl' }).click()
        const snippet = (await modal.getByRole('tabpanel').locator('pre').first().textContent())!
        const run = Bun.spawn(['bash', '-c', snippet], { stdout: 'pipe', stderr: 'pipe' })
        const [stdout, stderr, exitCode] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited])
        expect({ exitCode, answered: stdout.includes(ANSWER) }, `${stdout}\n${stderr}`).toEqual({ exitCode: 0, answered: true })
        await modal.getByRole('button', { name: t('tokens.key.done') }).click()

        await page.getByRole('link', { name: t('nav.playground'), exact: true }).click()
        await page.getByLabel(t('playground.message'), { exact: true }).fill('Say hello')
        await page.getByRole('button', { name: t('playground.send'), exact: true }).click()
        await page.getByRole('log', { name: t('playground.conversation') }).getByText(ANSWER).waitFor()
        await screenshot(page, `newcomer-${locale}-playground`)

        // done: the checklist has gone
        await page.getByRole('link', { name: t('nav.dashboard'), exact: true }).click()
        await page.getByRole('heading', { level: 1, name: t('nav.dashboard') }).waitFor()
        await page.getByRole('heading', { name: t('dashboard.usage.title') }).waitFor()
        expect(await page.getByRole('region', { name: t('firstRun.checklist.title') }).count()).toBe(0)
        watch.assertClean()
      } finally {
        await context.close()
        await gw.stop()
      }
    }, 120_000)
  }
})
