import { Database } from 'bun:sqlite'
import { expect } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseImportArgs } from '../../src/import/cli'
import { runImport, type ImportResult } from '../../src/import/run-import'
import type { FakeUpstream } from '../helpers/fake-upstreams'
import { sessionCookie } from '../helpers/accounts'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { PASSWORDS, UPSTREAM_KEYS, type NewApiFixture, type OneApiFixture } from './fixtures/rows'
import type { ReportJson } from '../../src/import/report'

export const tempDir = (name: string) => mkdtempSync(join(tmpdir(), `tollgate-import-${name}-`))

/**
 * Wait until nobody holds the file's write lock: a closed test app's writer thread closes its connection (and
 * checkpoints) a moment after close() returns. The import is meant to run with the gateway stopped.
 */
export async function waitUnlocked(path: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms
  for (;;) {
    const db = new Database(path)
    try {
      db.exec('BEGIN IMMEDIATE')
      db.exec('ROLLBACK')
      return
    } catch (error) {
      if (Date.now() > end) throw error
    } finally {
      db.close()
    }
    await Bun.sleep(25)
  }
}

/** Every table's rows, in rowid order: the logical content of a database (WAL checkpoints move bytes, not rows). */
export function dumpDb(path: string): string {
  const db = new Database(path, { readonly: true })
  try {
    const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all()
    return JSON.stringify(tables.map(({ name }) => [name, db.query(`SELECT * FROM "${name}" ORDER BY rowid`).all()]))
  } finally {
    db.close()
  }
}

/** `tollgate import new-api --from <from> --data-dir <dataDir> …` through the CLI's own argument parser. */
export async function importInto(dataDir: string, from: string, args: string[] = [], lines: string[] = [], env: Record<string, string> = {}): Promise<ImportResult> {
  const command = parseImportArgs(['new-api', '--from', from, '--data-dir', dataDir, ...args], env)
  if (command.kind !== 'run') throw new Error('expected a run command')
  return runImport({ ...command.options, log: (line) => lines.push(line) })
}

/** The gateway on the imported data dir, no root bootstrap (the import brought one), prices as imported. */
export async function startImported(dataDir: string): Promise<TestApp> {
  const app = await startTestApp({ ROOT_PASSWORD: '' }, undefined, dataDir)
  await app.deps.options.set('SelfUseModeEnabled', false) // startTestApp turns it on for made-up models; bill for real here
  return app
}

export async function loginAs(app: TestApp, username: string, password: string): Promise<{ status: number; cookie?: string; body: any }> {
  const res = await call(app, 'POST', '/api/user/login', { username, password })
  return { status: res.status, body: res.body, cookie: res.status === 200 ? sessionCookie(res.headers) : undefined }
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

async function until(check: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check()) && Date.now() < end) await Bun.sleep(20)
}

/**
 * What the issue asks of an import from new-api, whatever engine the source was in: old passwords log in (and
 * are rehashed), old keys answer /v1/models and a chat through the imported channel's key, balances and
 * invitation data equal the source's, a code redeems once, the report counts and names what it must.
 */
export async function checkNewApiImport(app: TestApp, fixture: NewApiFixture, upstream: FakeUpstream, result: ImportResult): Promise<void> {
  const { report } = result
  expect(report.outcome).toBe('committed')
  expect(report.source.schema).toBe('new-api')

  // users: every field that came over equals the source; the soft-deleted one is not there
  const users = app.deps.repos.users
  for (const source of fixture.rows.users!) {
    const row = await users.findByUsername(String(source.username))
    if (source.deleted_at) {
      expect(row).toBeUndefined()
      continue
    }
    expect(row).toBeDefined()
    expect(row!.id).toBe(Number(source.id))
    expect({
      quota: row!.quota, usedQuota: row!.usedQuota, requestCount: row!.requestCount, affCode: row!.affCode, affCount: row!.affCount,
      affQuota: row!.affQuota, affHistoryQuota: row!.affHistoryQuota, inviterId: row!.inviterId, role: row!.role, status: row!.status,
      group: row!.group, email: row!.email, displayName: row!.displayName,
    }).toEqual({
      quota: Number(source.quota), usedQuota: Number(source.used_quota), requestCount: Number(source.request_count), affCode: String(source.aff_code),
      affCount: Number(source.aff_count), affQuota: Number(source.aff_quota), affHistoryQuota: Number(source.aff_history), inviterId: Number(source.inviter_id),
      role: Number(source.role), status: Number(source.status), group: String(source.group), email: String(source.email), displayName: String(source.display_name),
    })
  }

  // old passwords: bcrypt verified, then rehashed to argon2id on that first login; the session stays valid
  expect((await users.findByUsername('alice'))!.password).toStartWith('$2a$')
  const alice = await loginAs(app, 'alice', PASSWORDS.alice)
  expect(alice.status).toBe(200)
  expect((await users.findByUsername('alice'))!.password).toStartWith('$argon2id$')
  expect((await call(app, 'GET', '/api/user/self', undefined, { cookie: alice.cookie! })).status).toBe(200)
  expect((await loginAs(app, 'alice', PASSWORDS.alice)).status).toBe(200) // and again, on the new hash
  expect((await loginAs(app, 'alice', 'wrong-password-1')).status).toBe(401)
  expect((await loginAs(app, '张三', PASSWORDS.zhang)).status).toBe(200)
  expect((await loginAs(app, 'bob', PASSWORDS.bob)).status).toBe(401) // disabled in new-api, disabled here
  const root = await loginAs(app, 'root', PASSWORDS.root)
  expect(root.status).toBe(200)

  // root's management access token from new-api still authenticates (as a Bearer token)
  const self = await call(app, 'GET', '/api/user/self', undefined, bearer(fixture.accessToken))
  expect(self.status).toBe(200)
  expect(self.body.data.username).toBe('root')

  // old API keys: with and without `sk-`; the model list is the token's own (group vip, model limits)
  const models = await call(app, 'GET', '/v1/models', undefined, bearer(`sk-${fixture.keys.alice}`))
  expect(models.status).toBe(200)
  expect(models.body.data.map((m: { id: string }) => m.id).sort()).toEqual(['gpt-4o', 'gpt-4o-mini'])
  expect((await call(app, 'GET', '/v1/models', undefined, bearer(fixture.keys.alice))).status).toBe(200)
  expect((await call(app, 'GET', '/v1/models', undefined, bearer(`sk-${fixture.keys.ghost}`))).status).toBe(401) // owner soft-deleted
  // and its owner sees it masked, as every Tollgate key
  const shown = await call(app, 'GET', '/api/token/1', undefined, { cookie: alice.cookie! })
  expect(shown.status).toBe(200)
  expect(shown.body.data.key).toBe(`sk-${fixture.keys.alice.slice(0, 4)}**********${fixture.keys.alice.slice(-4)}`)

  // new-api's channel proxy came over (map-overrides.ts); the fixture's proxy host does not exist, so the chat below goes without it
  const imported = JSON.parse((await app.deps.repos.channels.findById(1))!.setting) as Record<string, unknown>
  expect(imported.proxy).toBe('http://user:secret@proxy:8080')
  delete imported.proxy
  await app.deps.routing.channels.update(1, { setting: JSON.stringify(imported) })

  // a chat through the imported channel: its (decrypted) key reaches the upstream, its model mapping applies,
  // and the imported prices bill alice and her token
  upstream.reset()
  upstream.setBehavior({ text: 'hello from upstream', usage: { input: 1000, output: 500 } })
  const before = { user: (await users.findById(2))!.quota, token: (await app.deps.repos.tokens.findById(1))!.remainQuota }
  const chat = await call(app, 'POST', '/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, bearer(`sk-${fixture.keys.alice}`))
  expect(chat.status).toBe(200)
  expect(chat.body.choices[0].message.content).toBe('hello from upstream')
  const sent = upstream.requests.find((r) => r.kind === 'generate')!
  expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEYS.openai}`)
  expect(sent.json.model).toBe('gpt-4o-mini')
  // gpt-4o at ratio 1.25, completion 4, group vip 0.8: (1000 + 500 × 4) × 1.25 × 0.8 = 3000
  await until(async () => (await users.findById(2))!.quota === before.user - 3000)
  expect((await users.findById(2))!.quota).toBe(before.user - 3000)
  expect((await app.deps.repos.tokens.liveById(1))!.remainQuota).toBe(before.token - 3000)

  // redemption codes: the unused one redeems exactly once; used, expired and deleted ones do not
  const topup = (key: string) => call(app, 'POST', '/api/user/topup', { key }, { cookie: alice.cookie! })
  // the chat's settlement in the database first (PostgreSQL writes it with the next log batch): the top-up answers the stored balance
  await app.deps.metering.settledAll()
  await app.deps.metering.logs.flush()
  const quotaBefore = (await users.findById(2))!.quota
  const first = await topup(fixture.codes.unused)
  expect(first.status).toBe(200)
  expect(first.body.data.quota).toBe(1_000_000)
  expect(first.body.data.balance).toBe(quotaBefore + 1_000_000)
  expect((await topup(fixture.codes.unused)).status).toBe(400)
  expect((await topup(fixture.codes.used)).status).toBe(400)
  expect((await topup(fixture.codes.expired)).status).toBe(400)
  expect((await topup(fixture.codes.deleted)).status).toBe(400)

  // channels: the multi-key pool without the key new-api had disabled, statuses as they were or disabled
  const keys = await call(app, 'GET', '/api/channel/2/keys', undefined, { cookie: root.cookie! })
  expect(keys.status).toBe(200)
  expect(keys.body.data.map((k: { hint: string }) => k.hint)).toEqual(['…1111', '…3333'])
  const channel = async (id: number) => (await app.deps.repos.channels.findById(id))!
  // used_quota as imported, plus the chat above
  expect(await channel(1)).toMatchObject({ type: 1, priority: 10, weight: 5, tag: 'prod', group: 'default,vip', testModel: 'gpt-4o-mini', status: 1, autoBan: 1, modelMapping: '{"gpt-4o":"gpt-4o-mini"}', usedQuota: 123_456 + 3000 })
  expect((await channel(1)).key).toStartWith('v1:') // sealed
  expect((await channel(3)).status).toBe(3) // auto-disabled stays so
  // AWS Bedrock is served now: enabled, its key in new-api's format, the runtime host from the key's region
  expect(await channel(4)).toMatchObject({ type: 33, status: 1 })
  expect(await channel(5)).toMatchObject({ type: 999, status: 2 })
  expect(await channel(6)).toMatchObject({ type: 3, other: '2024-06-01', baseUrl: 'https://east.openai.azure.com', status: 1 })

  // options with a counterpart
  const opt = app.deps.options
  expect(opt.get<Record<string, number>>('ModelRatio')).toEqual({ 'gpt-4o-mini': 0.075, 'gpt-4o': 1.25, 'claude-haiku-4-5': 0.5 })
  expect(opt.get<Record<string, number>>('GroupRatio')).toEqual({ default: 1, vip: 0.8, svip: 0.6 })
  expect(opt.get<Record<string, number>>('ModelPrice')).toEqual({ 'dall-e-3': 0.04 })
  expect(opt.get('SystemName')).toBe('My New API')
  expect(opt.get('QuotaForNewUser')).toBe(1000)
  expect(opt.get('QuotaForInviter')).toBe(2000)
  expect(opt.get('QuotaForInvitee')).toBe(500)
  expect(opt.get('RegisterEnabled')).toBe(true)
  expect(opt.get('RelayMaxAttempts')).toBe(3)
  expect(opt.get('UserRpmLimit')).toBe(60)
  expect(opt.get('ServerAddress')).toBe('https://api.example.com')
  // the public face keeps its texts under new-api's names; a logo Tollgate refuses (http) is named in the report
  expect(opt.get('Notice')).toBe('**Maintenance** on Sunday')
  expect(opt.get('About')).toBe('https://about.example.com/team')
  expect(opt.get('HomePageContent')).toBe('# Welcome\n\nCheap tokens.')
  expect(opt.get('legal.user_agreement')).toBe('## 用户协议\n\n请遵守。')
  expect(opt.get('legal.privacy_policy')).toBe('## Privacy\n\nWe keep logs 30 days.')
  expect(opt.get('Footer')).toBe('© Example Ltd')
  expect(opt.get('Logo')).toBe('')
  expect(report.issues.some((i) => i.table === 'options' && i.field === 'Logo' && i.note.includes('https'))).toBe(true)

  // the report: counts, reasons, named channels and tables, ids; never a secret
  expect(report.tables.users).toEqual({ read: 6, imported: 5, skipped: 1, skipped_by_reason: { 'soft-deleted': 1 } })
  expect(report.tables.tokens).toEqual({ read: 6, imported: 4, skipped: 2, skipped_by_reason: { 'soft-deleted': 1, 'owner not imported': 1 } })
  expect(report.tables.channels).toMatchObject({ read: 6, imported: 6, skipped: 0 })
  expect(report.tables.redemptions).toEqual({ read: 4, imported: 3, skipped: 1, skipped_by_reason: { 'soft-deleted': 1 } })
  expect(report.unsupported_channels.map((c) => [c.id, c.source_type_name])).toEqual([[5, 'type 999']])
  expect(report.not_imported_tables).toMatchObject({ setups: { rows: 1, reason: 'no counterpart in Tollgate' } })
  // top-up orders come over (src/import/payments.ts)
  expect(report.not_imported_tables.top_ups).toBeUndefined()
  expect(report.tables.top_ups).toMatchObject({ read: 1, imported: 1 })
  const issue = (table: string, field: string) => report.issues.filter((i) => i.table === table && i.field === field)
  // github_id carries over as a binding (docs/accounts.md): the OAuth-only user is no longer reported as locked out
  expect(issue('users', 'github_id')).toEqual([])
  expect(issue('users', 'password')).toEqual([])
  expect((await app.deps.repos.bindings.listByUser(3)).map((b) => [b.provider, b.externalId])).toEqual([['github', 'gh-123']])
  expect((await app.deps.repos.bindings.listByUser(6)).map((b) => [b.provider, b.externalId])).toEqual([['github', 'gh-456']])
  expect(issue('users', 'group')[0]).toMatchObject({ value: '企业版', ids: [4] })
  expect(issue('tokens', 'group')[0]).toMatchObject({ value: 'auto', ids: [2] })
  expect(issue('tokens', 'cross_group_retry')[0]!.ids).toEqual([6])
  expect(issue('channels', 'key').find((i) => i.note.includes('key 2'))!.ids).toEqual([2])
  expect(issue('channels', 'openai_organization')[0]!.ids).toEqual([1])
  expect(issue('channels', 'setting.proxy')).toEqual([]) // imported (map-overrides.ts), not reported
  expect(issue('channels', 'setting.force_format')[0]!.ids).toEqual([1])
  // the SMTP password comes over sealed, as the API stores it (tests/import/accounts.test.ts has the rest)
  expect(issue('options', 'SMTPToken')).toHaveLength(0)
  expect(app.deps.options.get<string>('SMTPToken')).toStartWith('v1:')
  const text = JSON.stringify(report)
  for (const secret of ['smtp-secret-value-xyz', UPSTREAM_KEYS.openai, ...UPSTREAM_KEYS.anthropic, fixture.keys.alice, fixture.codes.unused, fixture.accessToken, 'user:secret@']) {
    expect(text).not.toContain(secret)
  }
}

/** one-api's channel numbering translated, token fields mapped, passwords and keys working. */
export async function checkOneApiImport(app: TestApp, one: OneApiFixture, report: ReportJson): Promise<void> {
  const channel = async (id: number) => (await app.deps.repos.channels.findById(id))!
  expect(await channel(1)).toMatchObject({ type: 1, status: 1 })
  expect(await channel(2)).toMatchObject({ type: 43, status: 1 }) // one-api 36 DeepSeek = new-api 43
  expect(await channel(3)).toMatchObject({ type: 42, status: 1 }) // one-api 28 Mistral = new-api 42
  expect(await channel(4)).toMatchObject({ type: 4, status: 1 }) // one-api 30 Ollama = new-api 4
  expect(await channel(5)).toMatchObject({ type: 0, status: 2 }) // one-api 26 Baichuan: no new-api number
  expect(JSON.parse((await channel(5)).setting)).toEqual({ imported_from: { schema: 'one-api', type: 26, type_name: 'Baichuan' } })
  expect(await channel(6)).toMatchObject({ type: 3, other: '2024-10-21' }) // Azure api_version from config
  expect(await channel(7)).toMatchObject({ type: 8, baseUrl: 'https://llm.example.com/v1' }) // OpenAICompatible = Custom
  expect(report.unsupported_channels.map((c) => [c.id, c.source_type, c.source_type_name])).toEqual([[5, 26, 'Baichuan']])

  const token = (await app.deps.repos.tokens.findById(1))!
  expect(token).toMatchObject({ modelLimitsEnabled: true, modelLimits: 'gpt-4o-mini,deepseek-chat', remainQuota: 1_000_000, usedQuota: 500, unlimitedQuota: false })
  expect(await app.deps.repos.tokens.findById(2)).toMatchObject({ modelLimitsEnabled: false, allowIps: '192.168.0.0/16\n10.1.2.3', unlimitedQuota: true })
  expect(await app.deps.repos.users.findByUsername('alice')).toMatchObject({ quota: 3_000_000, usedQuota: 12_345, requestCount: 9, inviterId: 1, affCode: 'AL02' })

  expect((await loginAs(app, 'alice', PASSWORDS.alice)).status).toBe(200)
  const models = await fetch(`${app.url}/v1/models`, { headers: { authorization: `Bearer sk-${one.keys.alice}` } })
  expect(models.status).toBe(200)
  const ids = ((await models.json()) as { data: { id: string }[] }).data.map((m) => m.id).sort()
  expect(ids).toEqual(['deepseek-chat', 'gpt-4o-mini'])
  // an early one-api key (a 32-character UUID) is accepted as it was issued
  expect((await fetch(`${app.url}/v1/models`, { headers: { authorization: `Bearer sk-${one.keys.uuid}` } })).status).toBe(200)
  expect((await app.deps.repos.tokens.findById(3))!.keyHint).toBe(one.keys.uuid.slice(0, 4) + one.keys.uuid.slice(-4))
  // one-api's channel test log (type 5) is a system row here; its elapsed_time (ms) is use_time_ms
  const logs = app.db.$client.query<{ type: number; content: string; use_time_ms: number; request_id: string }, []>('SELECT type, content, use_time_ms, request_id FROM logs ORDER BY created_at').all()
  expect(logs.slice(0, 2)).toEqual([
    { type: 2, content: '', use_time_ms: 850, request_id: 'req-1' },
    { type: 4, content: '[channel test] channel test ok', use_time_ms: 0, request_id: '' },
  ])
}
