/**
 * The console's whole story in Chromium against the compiled binary, as an operator and an invited user live
 * it: set up root, add a channel against a fake upstream, make a token and run its curl snippet in a real
 * bash, chat in the playground, find both requests in the logs and on the dashboard, invite a second user
 * and move the invitation quota, disable a channel tag, switch to Chinese and back. Controls are found by
 * role and label only. Every page is checked for console errors and requests leaving the machine.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import {
  browserAvailable,
  E2E_TIMEOUT,
  sharedBrowser,
  openPage,
  screenshot,
  startFakeOpenAI,
  startGateway,
  UPSTREAM_KEY,
  type FakeUpstream,
  type Gateway,
  type PageWatch,
} from './harness'

const ROOT = { username: 'root', password: 'e2e-root-password-1' }
const FRIEND = { username: 'friend', password: 'e2e-friend-password-1' }
const MODEL = 'gpt-4o-mini'
const ANSWER = 'Hello from the fake upstream'

describe.skipIf(!browserAvailable)('console: the whole story', () => {
  let gw: Gateway
  let upstream: FakeUpstream
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let watch: PageWatch
  let curlKey = ''

  beforeAll(async () => {
    ;[gw, upstream, browser] = await Promise.all([startGateway(), startFakeOpenAI(), sharedBrowser()])
    upstream.setBehavior({ text: ANSWER })
    ;({ context, page, watch } = await openPage(browser, { viewport: 'desktop', colorScheme: 'light' }))
  }, E2E_TIMEOUT)

  afterAll(async () => {
    await context?.close()
    await Promise.all([gw?.stop(), upstream?.stop()])
  }, E2E_TIMEOUT)

  const go = async (path: string, heading: string | RegExp) => {
    await page.goto(gw.url + path)
    await page.getByRole('heading', { level: 1, name: heading }).waitFor()
  }
  const nav = () => page.getByRole('navigation', { name: /main|主导航/i })

  test('setup creates root and lands on the dashboard', async () => {
    await page.goto(gw.url + '/')
    await page.waitForURL(/\/setup$/)
    await page.getByLabel('Username').fill(ROOT.username)
    await page.getByLabel('Password', { exact: true }).fill(ROOT.password)
    await page.getByLabel('Confirm password').fill(ROOT.password)
    await page.getByRole('button', { name: 'Create root account' }).click()
    await page.waitForURL(/\/dashboard$/)
    for (const name of ['Dashboard', 'Playground', 'Tokens', 'Logs', 'Wallet', 'Profile', 'Channels', 'Pricing', 'Users', 'Orders', 'Redemption codes', 'Settings']) {
      await nav().getByRole('link', { name, exact: true }).waitFor()
    }
    watch.assertClean()
  }, E2E_TIMEOUT)

  test('a channel against the fake upstream is created and passes its test', async () => {
    await go('/channels', 'Channels')
    await page.getByRole('button', { name: 'New channel' }).click()
    const drawer = page.getByRole('dialog')
    await drawer.getByLabel('Type', { exact: true }).selectOption({ label: 'OpenAI' })
    await drawer.getByLabel('Name', { exact: true }).fill('fake-openai')
    await drawer.getByLabel('Key', { exact: true }).fill(UPSTREAM_KEY)
    await drawer.getByLabel('Base URL', { exact: true }).fill(upstream.url)
    await drawer.getByLabel('Models', { exact: true }).fill(`${MODEL}, gpt-4o`)
    await drawer.getByLabel('Tag', { exact: true }).fill('fleet-a')
    await drawer.getByRole('button', { name: 'Create', exact: true }).click()
    await drawer.waitFor({ state: 'detached' })
    const row = page.getByRole('row', { name: /fake-openai/ })
    await row.waitFor()
    await row.getByRole('button', { name: 'Test fake-openai' }).click()
    await page.getByRole('status').getByText(/Tested: \d+ ms/).waitFor()
    // the key went to the upstream as the channel's own, never to the browser
    expect(upstream.requests.some((r) => r.headers.authorization === `Bearer ${UPSTREAM_KEY}`)).toBe(true)
    expect(await page.content()).not.toContain(UPSTREAM_KEY)
    watch.assertClean()
  }, E2E_TIMEOUT)

  test('a new token shows its key once, and its curl snippet runs as written in bash', async () => {
    await go('/tokens', 'Tokens')
    await page.getByRole('button', { name: 'New token' }).first().click()
    const drawer = page.getByRole('dialog')
    await drawer.getByLabel('Name', { exact: true }).fill('laptop')
    await drawer.getByLabel('Unlimited quota').check()
    await drawer.getByRole('button', { name: 'Create', exact: true }).click()
    const modal = page.getByRole('dialog', { name: 'Your new key' })
    await modal.waitFor()
    curlKey = (await modal.getByText(/^sk-[A-Za-z0-9]{20,}$/).first().textContent())!.trim()
    await modal.getByRole('tab', { name: 'curl' }).click()
    const snippet = (await modal.getByRole('tabpanel').locator('pre').first().textContent())!
    expect(snippet).toContain(curlKey)
    expect(snippet).toContain(gw.url)
    // async: the fake upstream answers from this process, so a blocking spawn would wait on itself
    const run = Bun.spawn(['bash', '-c', snippet], { stdout: 'pipe', stderr: 'pipe' })
    const [stdout, exitCode] = await Promise.all([new Response(run.stdout).text(), run.exited])
    expect({ exitCode, answered: stdout.includes(ANSWER) }).toEqual({ exitCode: 0, answered: true })
    await screenshot(page, 'flow-token-created')
    await modal.getByRole('button', { name: 'Done' }).click()
    // afterwards the key is masked everywhere
    await page.reload()
    await page.getByRole('row', { name: /laptop/ }).waitFor()
    expect(await page.content()).not.toContain(curlKey)
    watch.assertClean()
  }, E2E_TIMEOUT)

  test('the playground streams an answer and shows its usage', async () => {
    upstream.setBehavior({ text: ['Hello ', 'from ', 'the ', 'fake ', 'upstream'], delayMs: 250 })
    await go('/playground', 'Playground')
    await page.getByLabel('Model', { exact: true }).selectOption(MODEL)
    await page.getByLabel('Message', { exact: true }).fill('Say hello')
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    const log = page.getByRole('log', { name: 'Conversation' })
    // streamed: the first words are on screen while the last one is still on its way
    await log.getByText(/Hello/).first().waitFor()
    expect(await log.textContent()).not.toContain('upstream')
    await log.getByText(ANSWER).waitFor()
    await log.getByText(/prompt .* completion tokens/i).waitFor({ timeout: 15_000 })
    upstream.setBehavior({ text: ANSWER })
    watch.assertClean()
  }, E2E_TIMEOUT)

  test('both requests are in the logs and on the dashboard', async () => {
    await go('/logs', 'Logs')
    // admins see the token under the user, in one cell: "root laptop"
    await page.getByRole('cell', { name: /(^| )laptop$/ }).first().waitFor()
    await page.getByRole('cell', { name: /(^| )playground$/ }).first().waitFor()
    const row = page.getByRole('row', { name: /laptop/ }).first()
    await row.getByRole('button', { name: /Details/ }).click()
    await page.getByRole('dialog').getByText(/gpt-4o/).first().waitFor()
    await page.keyboard.press('Escape')
    await go('/dashboard', 'Dashboard')
    await page.getByText(MODEL).first().waitFor()
    await screenshot(page, 'flow-dashboard-with-traffic')
    watch.assertClean()
  }, E2E_TIMEOUT)

  test('an invited user registers through the link; the inviter moves the invitation quota to the balance', async () => {
    await go('/settings', 'Settings')
    await page.getByLabel('Allow sign-ups').check()
    await page.getByLabel('Quota for the inviter').fill('1000000')
    await page.getByRole('button', { name: 'Save registration settings' }).click()
    await page.getByRole('status').getByText('Registration settings saved').waitFor()

    await go('/wallet', 'Wallet')
    const link = (await page.getByText(/\/register\?aff=/).first().textContent())!.trim()
    expect(link).toStartWith(`${gw.url}/register?aff=`)

    // Under a loaded full-suite run this page was twice still without its form after 30 s (it passes alone, and
    // the cause is not known yet): the first visit waits 15 s, records what the page showed (text, screenshot,
    // console errors) and a fresh visitor tries once more, which must then succeed.
    let visitor = await openPage(browser, { viewport: 'mobile', colorScheme: 'dark' })
    await visitor.page.goto(link)
    const field = () => visitor.page.getByLabel('Invitation code')
    if (!(await field().waitFor({ timeout: 15_000 }).then(() => true, () => false))) {
      const shown = (await visitor.page.locator('body').innerText().catch(() => '')).slice(0, 500)
      await screenshot(visitor.page, 'flow-register-slow')
      console.warn(`e2e flow: the register form was not there after 15 s; the page showed: ${JSON.stringify(shown)}; console errors: ${JSON.stringify(visitor.watch.consoleErrors)}`)
      await visitor.context.close()
      visitor = await openPage(browser, { viewport: 'mobile', colorScheme: 'dark' })
      await visitor.page.goto(link)
    }
    try {
      await expect(field().inputValue()).resolves.toBe(new URL(link).searchParams.get('aff')!)
      await visitor.page.getByLabel('Username').fill(FRIEND.username)
      await visitor.page.getByLabel('Password', { exact: true }).fill(FRIEND.password)
      await visitor.page.getByLabel('Confirm password').fill(FRIEND.password)
      await visitor.page.getByRole('button', { name: 'Create account' }).click()
      await visitor.page.waitForURL(/\/dashboard$/)
      visitor.watch.assertClean()
    } finally {
      await visitor.context.close()
    }

    await page.reload()
    await page.getByLabel('Amount to transfer').fill('2') // US$, at the default 500,000 units per US$
    await page.getByRole('button', { name: 'Transfer to balance' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Transfer' }).click()
    await page.getByRole('status').getByText(/./).first().waitFor()
    const self = await (await context.request.get(gw.url + '/api/user/self')).json()
    expect(self.data.aff_count).toBe(1)
    expect(self.data.aff_quota).toBe(0)
    expect(self.data.aff_history_quota).toBe(1_000_000)
    watch.assertClean()
  }, E2E_TIMEOUT)

  test('disabling a channel tag disables its channels', async () => {
    await page.goto(gw.url + '/channels?tag=fleet-a')
    await page.getByRole('button', { name: "Disable tag 'fleet-a'" }).click()
    await page.getByRole('dialog').getByRole('button', { name: /Disable/ }).click()
    await page.getByRole('row', { name: /fake-openai/ }).getByText('Disabled', { exact: true }).waitFor()
    const channels = await (await context.request.get(gw.url + '/api/channel/?tag=fleet-a')).json()
    expect(channels.data.items.map((c: { status: number }) => c.status)).toEqual([2])
    watch.assertClean()
  }, E2E_TIMEOUT)

  test('the console switches to Chinese on every page and back, and remembers it', async () => {
    await go('/tokens', 'Tokens')
    await page.getByRole('button', { name: 'Language: English' }).click()
    await page.getByRole('menu', { name: 'Language' }).getByRole('menuitemradio', { name: '简体中文' }).click()
    await nav().getByRole('link', { name: '仪表盘', exact: true }).waitFor()
    await page.reload()
    await page.getByRole('button', { name: '语言：简体中文' }).waitFor()
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN')
    await screenshot(page, 'flow-tokens-zh')
    await page.getByRole('button', { name: '语言：简体中文' }).click()
    await page.getByRole('menuitemradio', { name: 'English' }).click()
    await nav().getByRole('link', { name: 'Dashboard', exact: true }).waitFor()
    watch.assertClean()
  }, E2E_TIMEOUT)
})
