/**
 * Issue #28, cross-origin writes, in Chromium against the compiled binary: root logs in on the console, then a
 * page served from another port of the same host (same site: the SameSite=Strict cookie goes along) tries form
 * posts and credentialed fetches to create a top-priority channel, promote a user and bill a playground call.
 * Each is refused and the database rows stay as they were; the console's own writes, in the same browser,
 * still work.
 */
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page, Response } from 'playwright-core'
import {
  apiLogin,
  browserAvailable,
  E2E_TIMEOUT,
  sharedBrowser,
  openAIChannel,
  openPage,
  startFakeOpenAI,
  startGateway,
  UPSTREAM_KEY,
  type FakeUpstream,
  type Gateway,
  type PageWatch,
} from './harness'

const ROOT = { username: 'root', password: 'e2e-root-password-1' }
const MODEL = 'gpt-4o-mini'
const ANSWER = 'Hello from the fake upstream'

interface Rows {
  channels: number
  victimRole: number
  logs: number
  upstreamCalls: number
}

describe.skipIf(!browserAvailable)('cross-origin writes from a page on another port', () => {
  let gw: Gateway
  let upstream: FakeUpstream
  let browser: Browser
  let context: BrowserContext
  let consolePage: Page
  let watch: PageWatch
  let elsewhere: ReturnType<typeof Bun.serve>
  let victimId = 0

  const rows = (): Rows => {
    const db = new Database(join(gw.dataDir, 'tollgate.db'), { readonly: true })
    try {
      const count = (sql: string) => (db.query(sql).get() as { n: number }).n
      return {
        channels: count('SELECT count(*) AS n FROM channels'),
        victimRole: (db.query('SELECT role FROM users WHERE id = ?').get(victimId) as { role: number }).role,
        logs: count('SELECT count(*) AS n FROM logs'),
        upstreamCalls: upstream.requests.filter((r) => r.path.endsWith('/chat/completions')).length,
      }
    } finally {
      db.close()
    }
  }

  beforeAll(async () => {
    ;[gw, upstream, browser] = await Promise.all([startGateway({ env: { ROOT_PASSWORD: ROOT.password } }), startFakeOpenAI(), sharedBrowser()])
    upstream.setBehavior({ text: ANSWER })
    // the instance's state, set up through the API as a script would (no Origin): a channel, a user, free models
    const admin = await apiLogin(gw, ROOT)
    expect((await admin.call('POST', '/api/channel/', openAIChannel(upstream, { models: [MODEL] }))).status).toBe(200)
    const victim = await admin.call('POST', '/api/user/', { username: 'victim', password: 'victim-password-1' })
    victimId = victim.body.data.id
    expect((await admin.call('PUT', '/api/option/', { key: 'SelfUseModeEnabled', value: true })).status).toBe(200)
    // the other port: a blank page, whose scripts below play the attacker
    elsewhere = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('<!doctype html><title>elsewhere</title>', { headers: { 'content-type': 'text/html' } }) })
    ;({ context, page: consolePage, watch } = await openPage(browser))
  }, E2E_TIMEOUT)

  afterAll(async () => {
    await context?.close()
    await elsewhere?.stop(true)
    await Promise.all([gw?.stop(), upstream?.stop()])
  }, E2E_TIMEOUT)

  test('root logs in on the console', async () => {
    await consolePage.goto(gw.url + '/login')
    await consolePage.getByLabel('Username').fill(ROOT.username)
    await consolePage.getByLabel('Password', { exact: true }).fill(ROOT.password)
    await consolePage.getByRole('button', { name: 'Log in', exact: true }).click()
    await consolePage.waitForURL(/\/dashboard\/?$/)
    watch.assertClean()
  }, E2E_TIMEOUT)

  test('form posts and credentialed fetches from the other port are refused, and nothing changes', async () => {
    const before = rows()
    const page = await context.newPage()
    const answered: { route: string; status: number }[] = []
    const seen = (response: Response) => {
      const url = response.url()
      if (url.startsWith(gw.url)) answered.push({ route: `${response.request().method()} ${new URL(url).pathname}`, status: response.status() })
    }
    page.on('response', seen)
    try {
      await page.goto(`http://127.0.0.1:${elsewhere.port}/`)
      const takeover = { ...openAIChannel(upstream, { name: 'takeover', models: [MODEL] }), priority: '999' }
      const promote = { id: String(victimId), action: 'promote' }
      const chat = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'bill root' }] })

      // forms: the page navigates to the gateway's answer
      const formAnswers: { path: string; status: number; refusal: boolean }[] = []
      const formPost = async (path: string, fields: Record<string, string>, enctype = 'application/x-www-form-urlencoded') => {
        const answer = page.waitForResponse((r) => r.url() === gw.url + path)
        await page.evaluate(
          ({ action, fields, enctype }) => {
            const form = document.createElement('form')
            Object.assign(form, { method: 'POST', action, enctype })
            for (const [name, value] of Object.entries(fields)) form.append(Object.assign(document.createElement('input'), { name, value }))
            document.body.append(form)
            form.submit()
          },
          { action: gw.url + path, fields, enctype },
        )
        const response = await answer
        formAnswers.push({ path, status: response.status(), refusal: (await response.text()).includes('cross_origin:') })
        await page.goto(`http://127.0.0.1:${elsewhere.port}/`)
      }
      await formPost('/api/channel/', takeover as Record<string, string>)
      await formPost('/api/user/manage', promote)
      // text/plain: the field's name carries the JSON, its value closes it
      await formPost('/pg/chat/completions', { [chat.slice(0, -1) + ',"pad":"']: '"}' }, 'text/plain')

      // fetches with the cookie: a simple request goes out (opaque to the page), a JSON one needs a preflight
      const outcomes = await page.evaluate(
        async ({ base, takeover, promote, chat }) => {
          const send = (path: string, init: RequestInit) =>
            fetch(base + path, { method: 'POST', credentials: 'include', ...init }).then(
              (r) => r.type,
              (e: Error) => e.name,
            )
          return [
            await send('/api/channel/', { mode: 'no-cors', body: new URLSearchParams(takeover) }),
            await send('/api/user/manage', { mode: 'no-cors', body: new URLSearchParams(promote) }),
            await send('/pg/chat/completions', { mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: chat }),
            await send('/api/user/manage', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...promote, id: Number(promote.id) }) }),
          ]
        },
        { base: gw.url, takeover: takeover as Record<string, string>, promote, chat },
      )
      expect(outcomes).toEqual(['opaque', 'opaque', 'opaque', 'TypeError'])
      expect(formAnswers).toEqual(['/api/channel/', '/api/user/manage', '/pg/chat/completions'].map((path) => ({ path, status: 403, refusal: true })))

      const refused = [
        { route: 'POST /api/channel/', status: 403 },
        { route: 'POST /api/user/manage', status: 403 },
        { route: 'POST /pg/chat/completions', status: 403 },
      ]
      // the JSON fetch's preflight finds no CORS answer, so its POST is never sent
      const posts = answered.filter((a) => a.route.startsWith('POST '))
      expect({ posts, rows: rows() }).toEqual({ posts: [...refused, ...refused], rows: before })
    } finally {
      await page.close()
    }
  }, E2E_TIMEOUT)

  test("the console's own writes still work: a channel, a promotion, a playground call", async () => {
    const before = rows()
    await consolePage.goto(gw.url + '/channels')
    await consolePage.getByRole('button', { name: 'New channel' }).click()
    const drawer = consolePage.getByRole('dialog')
    await drawer.getByLabel('Type', { exact: true }).selectOption({ label: 'OpenAI' })
    await drawer.getByLabel('Name', { exact: true }).fill('console-made')
    await drawer.getByLabel('Key', { exact: true }).fill(UPSTREAM_KEY)
    await drawer.getByLabel('Base URL', { exact: true }).fill(upstream.url)
    await drawer.getByLabel('Models', { exact: true }).fill(MODEL)
    await drawer.getByRole('button', { name: 'Create', exact: true }).click()
    await consolePage.getByRole('row', { name: /console-made/ }).waitFor()

    await consolePage.goto(gw.url + '/users')
    await consolePage.getByRole('row', { name: /victim/ }).getByRole('button', { name: /Actions for victim/ }).click()
    await consolePage.getByRole('menuitem', { name: 'Promote to admin' }).click()
    await consolePage.getByRole('dialog').getByRole('button', { name: 'Promote to admin' }).click()
    await consolePage.getByRole('status').getByText('“victim” is now an admin').waitFor()

    await consolePage.goto(gw.url + '/playground')
    await consolePage.getByLabel('Model', { exact: true }).selectOption(MODEL)
    await consolePage.getByLabel('Message', { exact: true }).fill('Say hello')
    await consolePage.getByRole('button', { name: 'Send', exact: true }).click()
    await consolePage.getByRole('log', { name: 'Conversation' }).getByText(ANSWER).waitFor()

    const after = rows()
    expect({ channels: after.channels, victimRole: after.victimRole, upstreamCalls: after.upstreamCalls }).toEqual({
      channels: before.channels + 1,
      victimRole: 10,
      upstreamCalls: before.upstreamCalls + 1,
    })
    watch.assertClean()
  }, E2E_TIMEOUT)
})
