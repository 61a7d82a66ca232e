/**
 * new-api's second factors come over: an enabled TOTP (secret sealed), its unused backup codes (bcrypt, as new-api
 * hashed them) and passkeys (base64 → base64url), so imported users sign in as they did. A pending TOTP does not.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { call, type TestApp } from '../helpers/test-app'
import { totpCode } from '../helpers/totp'
import { writeSqliteSource } from './fixtures/load'
import { goBcrypt, newApiRows, PASSWORDS } from './fixtures/rows'
import { NEW_API_TABLES } from './fixtures/schema'
import { importInto, startImported, tempDir } from './helpers'

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
const CREDENTIAL_ID = Buffer.from('credential-id-of-alice-0123456789')
const PUBLIC_KEY = Buffer.from('a-cose-public-key-as-new-api-stored-it')
let sourceDir: string
let dataDir: string
let app: TestApp
let report: any

beforeAll(async () => {
  sourceDir = tempDir('src2fa')
  dataDir = tempDir('data2fa')
  const source = join(sourceDir, 'new-api.db')
  writeSqliteSource(source, NEW_API_TABLES, (await newApiRows('http://127.0.0.1:9')).rows)
  const db = new Database(source)
  // GORM's tables for model.TwoFA, model.TwoFABackupCode and model.PasskeyCredential
  db.run('CREATE TABLE two_fas (id integer primary key, user_id integer unique not null, secret varchar(255) not null, is_enabled numeric, failed_attempts integer default 0, locked_until datetime, last_used_at datetime, created_at datetime, updated_at datetime, deleted_at datetime)')
  db.run('CREATE TABLE two_fa_backup_codes (id integer primary key, user_id integer not null, code_hash varchar(255) not null, is_used numeric, used_at datetime, created_at datetime, deleted_at datetime)')
  db.run(
    'CREATE TABLE passkey_credentials (id integer primary key, user_id integer not null, credential_id varchar(512) unique not null, public_key text not null, attestation_type varchar(255), aaguid varchar(512), sign_count integer default 0, clone_warning numeric, user_present numeric, user_verified numeric, backup_eligible numeric, backup_state numeric, transports text, attachment varchar(32), last_used_at datetime, created_at datetime, updated_at datetime, deleted_at datetime)',
  )
  db.run("INSERT INTO two_fas (id, user_id, secret, is_enabled) VALUES (1, 2, ?, 1), (2, 1, 'KRSXG5CTMVRXEZLU', 0)", [SECRET])
  db.run('INSERT INTO two_fa_backup_codes (user_id, code_hash, is_used) VALUES (2, ?, 0), (2, ?, 1)', [await goBcrypt('ABCD-1234'), await goBcrypt('USED-0000')])
  db.run("INSERT INTO passkey_credentials (user_id, credential_id, public_key, sign_count, transports, backup_state) VALUES (2, ?, ?, 7, '[\"internal\",\"hybrid\"]', 1)", [
    CREDENTIAL_ID.toString('base64'),
    PUBLIC_KEY.toString('base64'),
  ])
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

test('the report counts them, and no longer lists the tables as having no counterpart', () => {
  expect(report.not_imported_tables.two_fas).toBeUndefined()
  expect(report.not_imported_tables.passkey_credentials).toBeUndefined()
  expect(JSON.stringify(report)).toContain('never enabled')
})

test('an imported TOTP user is asked for a code and signs in with one; the secret is sealed', async () => {
  const first = await call(app, 'POST', '/api/user/login', { username: 'alice', password: PASSWORDS.alice })
  expect(first.body.data.require_2fa).toBe(true)
  const second = await call(app, 'POST', '/api/user/login/2fa', { code: totpCode(SECRET), flow_token: first.body.data.flow_token })
  expect([second.status, second.body.data.username]).toEqual([200, 'alice'])
  const row = await app.deps.repos.secondFactors.totp(2)
  expect(row!.secret).toStartWith('v1:')
  expect(row!.secret).not.toContain(SECRET)
})

test('an imported (bcrypt) backup code works once; a used one never came over; a pending TOTP did not come over', async () => {
  const login = async () => (await call(app, 'POST', '/api/user/login', { username: 'alice', password: PASSWORDS.alice })).body.data.flow_token
  expect((await call(app, 'POST', '/api/user/login/2fa', { code: 'abcd-1234', flow_token: await login() })).status).toBe(400) // new-api's codes are case-sensitive as hashed
  expect((await call(app, 'POST', '/api/user/login/2fa', { code: 'ABCD-1234', flow_token: await login() })).status).toBe(200)
  expect((await call(app, 'POST', '/api/user/login/2fa', { code: 'ABCD-1234', flow_token: await login() })).status).toBe(400)
  expect((await call(app, 'POST', '/api/user/login/2fa', { code: 'USED-0000', flow_token: await login() })).status).toBe(400)
  expect(await app.deps.repos.secondFactors.totp(1)).toBeUndefined()
})

test('an imported passkey keeps its id, key, counter and transports, in base64url', async () => {
  const [row] = await app.deps.repos.secondFactors.passkeys(2)
  expect(row).toMatchObject({ credentialId: CREDENTIAL_ID.toString('base64url'), publicKey: PUBLIC_KEY.toString('base64url'), counter: 7, backedUp: true })
  expect(JSON.parse(row!.transports)).toEqual(['internal', 'hybrid'])
})
