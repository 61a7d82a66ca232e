/**
 * new-api's users' notification settings (their `setting` JSON) come over: webhook or e-mail, the quota threshold,
 * the address, the webhook secret sealed and never shown; Bark and Gotify, which Tollgate has not, fall back to
 * e-mail and are reported; the other setting fields are named in the report, their values left out.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { call, type TestApp } from '../helpers/test-app'
import { writeSqliteSource } from './fixtures/load'
import { newApiRows, PASSWORDS } from './fixtures/rows'
import { NEW_API_TABLES } from './fixtures/schema'
import { importInto, loginAs, startImported, tempDir } from './helpers'

const SECRET = 'whsec-alice-0123456789abcdef'
let sourceDir: string
let dataDir: string
let app: TestApp
let report: any

beforeAll(async () => {
  sourceDir = tempDir('srcnotify')
  dataDir = tempDir('datanotify')
  const source = join(sourceDir, 'new-api.db')
  writeSqliteSource(source, NEW_API_TABLES, (await newApiRows('http://127.0.0.1:9')).rows)
  const db = new Database(source)
  const alice = { notify_type: 'webhook', quota_warning_threshold: 250000.4, webhook_url: 'https://hooks.example.com/alice', webhook_secret: SECRET, notification_email: 'Alerts@Example.com', record_ip_log: true, sidebar_modules: '{"x":1}' }
  db.run('UPDATE users SET setting = ? WHERE id = 2', [JSON.stringify(alice)])
  db.run('UPDATE users SET setting = ? WHERE id = 3', [JSON.stringify({ notify_type: 'bark', bark_url: 'https://api.day.app/key/{{title}}', quota_warning_threshold: 1000 })])
  db.run("UPDATE users SET setting = 'not json' WHERE id = 6")
  db.close()
  const result = await importInto(dataDir, source)
  expect(result.exitCode).toBe(0)
  report = result.report
  app = await startImported(dataDir)
})

afterAll(async () => {
  await app?.close()
  for (const dir of [sourceDir, dataDir]) rmSync(dir, { recursive: true, force: true })
})

test("a webhook user's settings come over, the secret sealed at rest and masked in the API", async () => {
  const row = await app.deps.repos.notifySettings.get(2)
  expect(row).toMatchObject({ notifyType: 'webhook', quotaWarningThreshold: 250000, webhookUrl: 'https://hooks.example.com/alice', notificationEmail: 'alerts@example.com' })
  expect(row!.webhookSecret).toStartWith('v1:')
  expect(row!.webhookSecret).not.toContain(SECRET)
  const login = await loginAs(app, 'alice', PASSWORDS.alice)
  const view = await call(app, 'GET', '/api/user/setting', undefined, { cookie: login.cookie! })
  expect(view.status).toBe(200)
  expect(view.body.data).toMatchObject({ notify_type: 'webhook', quota_warning_threshold: 250000, webhook_secret_set: true, notification_email: 'alerts@example.com' })
  expect(JSON.stringify(view.body)).not.toContain(SECRET)
})

test('Bark falls back to e-mail with its threshold kept; defaults and bad JSON write nothing; all of it reported', async () => {
  expect(await app.deps.repos.notifySettings.get(3)).toMatchObject({ notifyType: 'email', quotaWarningThreshold: 1000, webhookUrl: '' })
  expect(await app.deps.repos.notifySettings.get(6)).toBeUndefined()
  expect(await app.deps.repos.notifySettings.get(1)).toBeUndefined()
  const text = JSON.stringify(report)
  expect(text).toContain('bark notifications have no counterpart')
  expect(text).toContain('record_ip_log, sidebar_modules')
  expect(text).toContain('not JSON: notification settings not imported')
  expect(text).not.toContain(SECRET)
  expect(text).not.toContain('api.day.app')
})
