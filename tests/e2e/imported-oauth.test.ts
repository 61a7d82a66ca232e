/**
 * An imported new-api user who only ever signed in through GitHub (no password; `github_id` only) signs in
 * through the console in Chromium after `tollgate import`, then binds Discord from the profile and unbinds GitHub:
 * the unbind button is off while GitHub is the last way in, and on once Discord is bound. GitHub and Discord are
 * fakes on their documented paths (tests/helpers/fake-oauth), reached through PROVIDER_ENDPOINTS.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { startFakeDiscord, type FakeDiscord } from '../helpers/fake-oauth/discord'
import { startFakeGitHub, type FakeGitHub } from '../helpers/fake-oauth/github'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { writeSqliteSource } from '../import/fixtures/load'
import { newApiRows, PASSWORDS } from '../import/fixtures/rows'
import { NEW_API_TABLES } from '../import/fixtures/schema'
import { importInto, loginAs, tempDir } from '../import/helpers'
import { browserAvailable, E2E_TIMEOUT, sharedBrowser, openPage } from './harness'

const GITHUB = { id: 'Iv1.imported', secret: 'github-secret-imported-0123456789' }
const DISCORD = { id: '99887766', secret: 'discord-secret-imported-0123456789' }

describe.skipIf(!browserAvailable)('console: an imported OAuth-only user', () => {
  let app: TestApp
  let github: FakeGitHub
  let discord: FakeDiscord
  let browser: Browser
  const bindingsOf = (userId: number) => app.db.$client.query('SELECT provider, external_id FROM user_bindings WHERE user_id = ? ORDER BY provider').all(userId)

  beforeAll(async () => {
    const source = join(tempDir('oauth-src'), 'new-api.db')
    writeSqliteSource(source, NEW_API_TABLES, (await newApiRows('http://127.0.0.1:9')).rows)
    // new-api's user 6 "oauth_only": no password, a GitHub id (numeric, as GitHub's are)
    const db = new Database(source)
    db.run("UPDATE users SET github_id = '456' WHERE id = 6")
    db.close()
    const dataDir = tempDir('oauth-data')
    await importInto(dataDir, source)
    github = startFakeGitHub(GITHUB, { id: 456, login: 'oauth-only-gh', name: 'Only OAuth' })
    discord = startFakeDiscord(DISCORD, { id: '80351110224678999', username: 'only_discord', email: 'only@example.com', verified: true })
    app = await startTestApp({ ROOT_PASSWORD: '', PROVIDER_ENDPOINTS: JSON.stringify({ github: github.url, discord: discord.url }) }, undefined, dataDir)
    const root = await loginAs(app, 'root', PASSWORDS.root)
    const options = {
      ServerAddress: app.url,
      // sign-in of a bound user works with registration closed: nothing new is made here
      RegisterEnabled: false,
      GitHubOAuthEnabled: true, GitHubClientId: GITHUB.id, GitHubClientSecret: GITHUB.secret,
      'discord.enabled': true, 'discord.client_id': DISCORD.id, 'discord.client_secret': DISCORD.secret,
    }
    for (const [key, value] of Object.entries(options)) expect((await call(app, 'PUT', '/api/option/', { key, value }, { cookie: root.cookie! })).status).toBe(200)
    browser = await sharedBrowser()
  }, E2E_TIMEOUT)

  afterAll(async () => {
    await app?.stop()
    github?.stop()
    discord?.stop()
  }, E2E_TIMEOUT)

  test('signs in with GitHub from the login page, binds Discord, then unbinds GitHub', async () => {
    expect(bindingsOf(6)).toEqual([{ provider: 'github', external_id: '456' }])
    const users = (app.db.$client.query('SELECT count(*) AS n FROM users').get() as { n: number }).n
    const { context, page, watch } = await openPage(browser, { viewport: 'desktop' })
    try {
      await page.goto(`${app.url}/login`)
      await page.getByRole('button', { name: 'Continue with GitHub' }).click()
      await page.waitForURL(`${app.url}/dashboard`)
      const self = await page.evaluate(async () => ((await (await fetch('/api/user/self')).json()) as { data: { id: number; username: string } }).data)
      expect(self).toMatchObject({ id: 6, username: 'oauth_only' })
      expect((app.db.$client.query('SELECT count(*) AS n FROM users').get() as { n: number }).n).toBe(users)

      await page.goto(`${app.url}/profile`)
      const card = page.getByRole('region', { name: 'Sign-in accounts' })
      await card.getByText('You have no password').waitFor()
      await card.getByText('Bound (account 456)').waitFor()
      // GitHub is the last way in: its unbind is off
      expect(await card.getByRole('button', { name: 'Unbind GitHub' }).isDisabled()).toBe(true)

      await card.getByRole('button', { name: 'Bind Discord' }).click()
      await page.waitForURL(`${app.url}/profile`)
      await card.getByText('Bound (account 80351110224678999)').waitFor()
      expect(bindingsOf(6)).toEqual([
        { provider: 'discord', external_id: '80351110224678999' },
        { provider: 'github', external_id: '456' },
      ])

      const unbind = card.getByRole('button', { name: 'Unbind GitHub' })
      expect(await unbind.isDisabled()).toBe(false)
      await unbind.click()
      await page.getByRole('dialog').getByRole('button', { name: 'Unbind', exact: true }).click()
      await card.getByRole('button', { name: 'Bind GitHub' }).waitFor()
      expect(bindingsOf(6)).toEqual([{ provider: 'discord', external_id: '80351110224678999' }])
      // now Discord is the last way in
      await page.waitForSelector('button[aria-label="Unbind Discord"][disabled]')
      watch.assertClean()
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)

  test('root sees the user’s binding in the user drawer and clears it', async () => {
    const { context, page, watch } = await openPage(browser, { viewport: 'desktop' })
    try {
      await context.request.post(`${app.url}/api/user/login`, { data: { username: 'root', password: PASSWORDS.root } })
      await page.goto(`${app.url}/users`)
      await page.getByRole('button', { name: 'Actions for oauth_only' }).click()
      await page.getByRole('menuitem', { name: 'Edit' }).click()
      const drawer = page.getByRole('dialog')
      await drawer.getByText('This user has no password').waitFor()
      await drawer.getByText('80351110224678999').waitFor()
      await drawer.getByRole('button', { name: 'Clear Discord' }).click()
      await page.getByRole('alertdialog').or(page.getByRole('dialog').last()).getByRole('button', { name: 'Clear', exact: true }).click()
      await drawer.getByText('No account of another service is bound.').waitFor()
      expect(bindingsOf(6)).toEqual([])
      watch.assertClean()
    } finally {
      await context.close()
    }
  }, E2E_TIMEOUT)
})
