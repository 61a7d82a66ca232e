/**
 * new-api's account settings come over through `tollgate import`: SMTP, Turnstile, the sign-in providers, Telegram
 * and WeChat under their own names, the secrets among them sealed as the API seals them; its custom sign-in
 * providers (oauth_code kind, client secret sealed) and its users' bindings to them (`custom:<new id>`).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { openSecretOption } from '../../src/options/secret-options'
import type { TestApp } from '../helpers/test-app'
import { writeSqliteSource } from './fixtures/load'
import { newApiRows } from './fixtures/rows'
import { NEW_API_TABLES } from './fixtures/schema'
import { importInto, startImported, tempDir } from './helpers'

const SECRETS = { SMTPToken: 'smtp-password-imported', TurnstileSecretKey: '0x4AAA-turnstile-secret', GitHubClientSecret: 'gh-secret-imported-0123', TelegramBotToken: '123:AAH-imported-bot', WeChatServerToken: 'wechat-token-imported' }
const PLAIN = { SMTPServer: 'smtp.example.com', SMTPPort: '465', SMTPSSLEnabled: 'true', SMTPAccount: 'mailer@example.com', GitHubOAuthEnabled: 'true', GitHubClientId: 'Iv1.imported', TelegramOAuthEnabled: 'true', TelegramBotName: 'ImportedBot', WeChatAuthEnabled: 'true', WeChatServerAddress: 'https://wechat.example.com', 'oidc.well_known': 'https://issuer.example/.well-known/openid-configuration' }
let sourceDir: string
let dataDir: string
let app: TestApp
let report: any

beforeAll(async () => {
  sourceDir = tempDir('src-accounts')
  dataDir = tempDir('data-accounts')
  const source = join(sourceDir, 'new-api.db')
  writeSqliteSource(source, NEW_API_TABLES, (await newApiRows('http://127.0.0.1:9')).rows)
  const db = new Database(source)
  for (const [key, value] of Object.entries({ ...SECRETS, ...PLAIN, SMTPFrom: 'not a mailbox' })) db.run('INSERT OR REPLACE INTO options (key, value) VALUES (?, ?)', [key, value])
  // GORM's tables for model.CustomOAuthProvider (the columns Tollgate reads and a few it does not) and model.UserOAuthBinding
  db.run(
    "CREATE TABLE custom_oauth_providers (id integer primary key, name varchar(64) not null, slug varchar(64) unique not null, icon varchar(128) default '', kind varchar(32) default 'oauth_code', enabled numeric default false, client_id varchar(256), client_secret varchar(512), authorization_endpoint varchar(512), token_endpoint varchar(512), user_info_endpoint varchar(512), scopes varchar(256), issuer varchar(512), jwks_url varchar(512), user_id_field varchar(128) default 'sub', username_field varchar(128), display_name_field varchar(128), email_field varchar(128), auth_style integer default 0, well_known varchar(512), created_at datetime, updated_at datetime)",
  )
  db.run('CREATE TABLE user_oauth_bindings (id integer primary key, user_id integer not null, provider_id integer not null, provider_user_id varchar(256) not null, created_at datetime)')
  const provider = (id: number, slug: string, kind: string) =>
    db.run(
      "INSERT INTO custom_oauth_providers (id, name, slug, kind, enabled, client_id, client_secret, authorization_endpoint, token_endpoint, user_info_endpoint, scopes, user_id_field, username_field, display_name_field, email_field, auth_style) VALUES (?, ?, ?, ?, 1, 'corp-client', 'corp-secret-0123', 'https://sso.corp.example/authorize', 'https://sso.corp.example/token', 'https://sso.corp.example/userinfo', 'openid profile', 'data.user.id', 'login', 'name', 'mail', 1)",
      [id, `Provider ${slug}`, slug, kind],
    )
  provider(7, 'corp-sso', 'oauth_code')
  provider(8, 'jwt-thing', 'jwt_direct')
  provider(9, 'github', 'oauth_code')
  db.run("INSERT INTO user_oauth_bindings (user_id, provider_id, provider_user_id) VALUES (2, 7, 'corp-user-42'), (2, 8, 'jwt-user'), (999, 7, 'ghost')")
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

const stored = (key: string) => (app.db.$client.query('SELECT value FROM options WHERE key = ?').get(key) as { value: string } | null)?.value

test('the account options come over under their names; a value Tollgate refuses is reported, not written', () => {
  for (const [key, value] of Object.entries(PLAIN)) expect(stored(key)).toBe(value)
  expect(stored('SMTPFrom')).toBeUndefined()
  expect(JSON.stringify(report)).toContain('not a valid SMTPFrom')
})

test('the secret options are stored sealed and open to what new-api had; the API shows them masked', async () => {
  for (const [key, value] of Object.entries(SECRETS)) {
    expect(stored(key)).toStartWith('v1:')
    expect(stored(key)).not.toContain(value)
    expect(await openSecretOption(app.deps.secrets.crypto, app.deps.options, key)).toBe(value)
  }
  expect(JSON.stringify(report)).not.toContain('gh-secret-imported')
})

test('custom providers: the oauth_code one with its fields and a sealed secret; other kinds and reserved slugs reported', async () => {
  const rows = await app.deps.repos.customOAuth.list()
  expect(rows.map((r) => r.slug)).toEqual(['corp-sso'])
  const corp = rows[0]!
  expect(corp).toMatchObject({ enabled: true, clientId: 'corp-client', userIdField: 'data.user.id', usernameField: 'login', emailField: 'mail', authStyle: 1, tokenEndpoint: 'https://sso.corp.example/token' })
  expect(corp.clientSecret).toStartWith('v1:')
  expect(JSON.stringify(report)).toContain('jwt_direct')
  expect(report.issues.some((i: { note: string }) => i.note.includes('"github" is a built-in provider'))).toBe(true)
  expect(JSON.stringify(report)).not.toContain('corp-secret')
  expect(report.not_imported_tables.custom_oauth_providers).toBeUndefined()
})

test('bindings to an imported provider come over as custom:<new id>; the others are skipped', async () => {
  const corp = (await app.deps.repos.customOAuth.findBySlug('corp-sso'))!
  const rows = app.db.$client.query("SELECT user_id, provider, external_id FROM user_bindings WHERE provider LIKE 'custom:%'").all()
  expect(rows).toEqual([{ user_id: 2, provider: `custom:${corp.id}`, external_id: 'corp-user-42' }])
})
