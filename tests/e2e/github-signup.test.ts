/**
 * A stranger signs up with GitHub from the login page in Chromium, logs out, and signs in again with GitHub:
 * the first visit makes exactly one account bound to the GitHub id, the second finds it and makes none. With
 * registration closed, a new GitHub account is refused on the login page and nothing is made. GitHub is the fake
 * on its documented paths (tests/helpers/fake-oauth/github.ts), reached through PROVIDER_ENDPOINTS.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { startFakeGitHub, type FakeGitHub } from '../helpers/fake-oauth/github'
import { login } from '../helpers/accounts'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { browserAvailable, E2E_TIMEOUT, openPage, sharedBrowser } from './harness'

const GITHUB = { id: 'Iv1.signup', secret: 'github-secret-signup-0123456789' }

describe.skipIf(!browserAvailable)('console: sign up with GitHub, then sign in with it', () => {
  let app: TestApp
  let github: FakeGitHub
  let browser: Browser
  let rootCookie: string
  const countUsers = () => (app.db.$client.query('SELECT count(*) AS n FROM users').get() as { n: number }).n
  const boundTo = (externalId: string) => app.db.$client.query("SELECT user_id FROM user_bindings WHERE provider = 'github' AND external_id = ?").all(externalId) as { user_id: number }[]
  const setOption = async (key: string, value: unknown) => expect((await call(app, 'PUT', '/api/option/', { key, value }, { cookie: rootCookie })).status).toBe(200)

  beforeAll(async () => {
    github = startFakeGitHub(GITHUB, { id: 777001, login: 'octo-newcomer', name: 'Octo Newcomer', email: 'octo@example.com', verified: true })
    app = await startTestApp({ PROVIDER_ENDPOINTS: JSON.stringify({ github: github.url }) })
    rootCookie = await login(app)
    for (const [key, value] of Object.entries({ ServerAddress: app.url, RegisterEnabled: true, GitHubOAuthEnabled: true, GitHubClientId: GITHUB.id, GitHubClientSecret: GITHUB.secret })) await setOption(key, value)
    browser = await sharedBrowser()
  }, E2E_TIMEOUT)

  afterAll(async () => {
    await app?.stop()
    github?.stop()
  }, E2E_TIMEOUT)

  test('the first visit makes one account bound to the GitHub id; after logging out, GitHub signs the same account in', async () => {
    const before = countUsers()
    const { context, page, watch } = await openPage(browser, { viewport: 'desktop' })
    try {
      await page.goto(`${app.url}/login`)
      await page.getByRole('button', { name: 'Continue with GitHub' }).click()
      await page.waitForURL(`${app.url}/dashboard`)
      const first = await page.evaluate(async () => ((await (await fetch('/api/user/self')).json()) as { data: { id: number; username: string } }).data)
      expect(countUsers()).toBe(before + 1)
      expect(boundTo('777001')).toEqual([{ user_id: first.id }])

      await page.getByRole('button', { name: 'Log out' }).click()
      await page.waitForURL(/\/login/)
      expect((await context.cookies()).map((c) => c.name)).not.toContain('tollgate_session')

      await page.getByRole('button', { name: 'Continue with GitHub' }).click()
      await page.waitForURL(`${app.url}/dashboard`)
      const again = await page.evaluate(async () => ((await (await fetch('/api/user/self')).json()) as { data: { id: number; username: string } }).data)
      expect(again).toEqual(first)
      expect(countUsers()).toBe(before + 1)
      watch.assertClean()
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)

  test('with registration closed, a GitHub account nobody holds is refused on the login page and nothing is made', async () => {
    await setOption('RegisterEnabled', false)
    github.account = { id: 777002, login: 'octo-late', email: 'late@example.com', verified: true }
    const before = countUsers()
    const { context, page } = await openPage(browser, { viewport: 'desktop' })
    try {
      await page.goto(`${app.url}/login`)
      await page.getByRole('button', { name: 'Continue with GitHub' }).click()
      await page.getByRole('alert').waitFor()
      expect(page.url()).not.toContain('/dashboard')
      expect(countUsers()).toBe(before)
      expect(boundTo('777002')).toEqual([])
    } finally {
      await context.close()
      await setOption('RegisterEnabled', true)
    }
  }, E2E_TIMEOUT)
})
