/**
 * `tollgate migrate-db`: an instance built by the real app over its HTTP API (users, tokens, channels with
 * sealed keys, redemptions and a top-up, options, relay traffic that writes logs and hourly usage, a
 * logout), copied by the command as its own process into a real PostgreSQL, then read back table by table.
 */
import { SQL } from 'bun'
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { copiedTables } from '../../src/db/postgres/copy-from-sqlite'
import { snapshotDatabase } from '../../src/backup/backup'
import { keyBodyOf, keyHash } from '../../src/services/tokens/key'
import { login } from '../helpers/accounts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import { hasPostgres, NO_POSTGRES, sharedPostgres, type PgServer } from '../helpers/pg-server'
import { freePort } from '../helpers/server-process'
import { call, startTestApp } from '../helpers/test-app'
import { serve, tollgate } from '../ops/process'

const describePg = hasPostgres() ? describe : describe.skip
if (!hasPostgres()) console.warn(`tests/cli/migrate-db: ${NO_POSTGRES}`)

const UPSTREAM_KEY = 'sk-upstream-migrate-0123456789abcdef'
const BIG_QUOTA = 5_000_000_000 // past 2^31: needs int8 on the PostgreSQL side
const TRICKY = 'line one\n\tindented\r\n\\N is not NULL, C:\\path\\ 网关 🚪'
const temps: string[] = []
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-migrate-db-'))
  temps.push(dir)
  return dir
}

/** Every row of a table, ordered by all its columns, read from SQLite and PostgreSQL with the same SELECT. */
const ORDERED = (table: string, columns: string[]) => `SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}" ORDER BY ${columns.map((c) => `"${c}"`).join(', ')}`

describePg('migrate-db', () => {
  let pg: PgServer
  let upstream: FakeUpstream
  let dataDir: string
  let apiKey: string

  beforeAll(async () => {
    pg = await sharedPostgres()
    upstream = await startFakeUpstream({ keys: [UPSTREAM_KEY] })
    upstream.setBehavior({ text: 'Hello from upstream.', usage: { input: 9, output: 5 } })
    dataDir = temp()
    const app = await startTestApp({}, undefined, dataDir)
    await app.deps.options.set('SelfUseModeEnabled', false) // priced: the logs carry real quota
    const root = { cookie: await login(app) }
    const ok = async (method: string, path: string, body?: unknown) => {
      const res = await call(app, method, path, body, root)
      if (res.status !== 200 || res.body.success === false) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`)
      return res.body.data
    }
    const alice = await ok('POST', '/api/user/', { username: 'alice', password: 'alice-password-1', quota: BIG_QUOTA })
    await ok('POST', '/api/user/', { username: 'bob', password: 'bob-password-12', group: 'vip' })
    await ok('POST', '/api/channel/', { type: 1, name: 'main', key: UPSTREAM_KEY, base_url: upstream.url, models: 'gpt-4o,gpt-4o-mini', group: 'default,vip', tag: 't1' })
    await ok('POST', '/api/channel/', { type: 14, name: 'spare', key: 'sk-ant-one\nsk-ant-two', models: 'claude-sonnet-4-5', priority: 3 })
    const deleted = await ok('POST', '/api/channel/', { type: 1, name: 'gone', key: 'sk-deleted-000000000000', models: 'x' })
    await ok('DELETE', `/api/channel/${deleted.id}`) // its id is spent: the sequence must not hand it out again
    // what COPY's text format must escape: tab, newline, CR, backslash, a literal \N; and text beyond ASCII
    await ok('PUT', '/api/option/', { key: 'SystemName', value: TRICKY })
    const { keys } = await ok('POST', '/api/redemption/', { name: 'gift', count: 2, quota: 1234 })
    // alice: an API key (limited), relay traffic, a top-up, and a logout (a revoked session)
    const aliceCookie = { cookie: await login(app, 'alice', 'alice-password-1') }
    const token = await call(app, 'POST', '/api/token/', { name: 'agent', remain_quota: 3_000_000_000, model_limits_enabled: true, model_limits: 'gpt-4o' }, aliceCookie)
    apiKey = token.body.data.key
    await call(app, 'POST', '/api/token/', { name: 'spare', unlimited_quota: true }, aliceCookie)
    expect((await call(app, 'POST', '/api/user/topup', { key: keys[0] }, aliceCookie)).status).toBe(200)
    for (let i = 0; i < 3; i++) {
      const res = await app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: `hi ${i}` }] }) })
      expect(res.status).toBe(200)
      await res.text()
    }
    expect((await call(app, 'GET', '/api/user/logout', undefined, aliceCookie)).status).toBe(200)
    expect(alice.id).toBeGreaterThan(1)
    await app.close() // flushes the metering writer: logs, hourly usage and charges are in the file
  }, 60_000)

  afterAll(async () => {
    await upstream?.stop()
    for (const dir of temps) rmSync(dir, { recursive: true, force: true })
  })

  test('copies every table into an empty database: counts, rows, keys and quotas match; sequences move past the ids', async () => {
    const url = await pg.createDatabase()
    const run = await tollgate(['migrate-db', '--to', url, '--data-dir', dataDir, '--batch-rows', '2'])
    expect([run.code, run.stderr]).toEqual([0, expect.stringContaining('copied logs (')])
    expect(run.stdout).toContain('every row count and quota sum matches')
    expect(run.stdout).not.toContain(pg.password)
    const sqlite = new Database(join(dataDir, 'tollgate.db'), { readonly: true })
    const target = new SQL({ url })
    try {
      for (const { name } of copiedTables()) {
        const columns = (sqlite.query(`SELECT name FROM pragma_table_info('${name}')`).all() as { name: string }[]).map((c) => c.name)
        const fromSqlite = sqlite.query(ORDERED(name, columns)).all() as Record<string, unknown>[]
        const fromPg = (await target.unsafe(ORDERED(name, columns))) as Record<string, unknown>[]
        // PostgreSQL hands int8 over as text and booleans as booleans; SQLite stores 0/1: compare as SQLite stores
        const normalized = fromPg.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'boolean' ? Number(v) : typeof v === 'string' && /^-?\d+$/.test(v) && typeof fromSqlite[0]?.[k] === 'number' ? Number(v) : v])))
        expect([name, normalized.length]).toEqual([name, fromSqlite.length])
        expect([name, normalized]).toEqual([name, fromSqlite])
        expect(run.stdout).toMatch(new RegExp(`${name} +${fromSqlite.length} +${fromSqlite.length}`))
      }
      // what the nodes will read: the big quota as int8, the sealed keys byte for byte, the key hashes
      const [alice] = await target`SELECT quota, used_quota FROM users WHERE username = 'alice'`
      expect(Number(alice.quota)).toBe(sqlite.query<{ quota: number }, []>("SELECT quota FROM users WHERE username = 'alice'").get()!.quota)
      expect(Number(alice.quota)).toBeGreaterThan(2 ** 31)
      const keys = (await target`SELECT id, key FROM channels ORDER BY id`) as { id: number; key: string }[]
      expect(keys.map((k) => Buffer.from(k.key))).toEqual(sqlite.query<{ key: string }, []>('SELECT key FROM channels ORDER BY id').all().map((k) => Buffer.from(k.key)))
      expect(keys[0]!.key).toStartWith('v1:')
      const hash = keyHash(keyBodyOf(apiKey)!) // what relay auth on a node will look up
      expect(await target`SELECT name FROM tokens WHERE key_hash = ${hash}`).toEqual([{ name: 'agent' }])
      expect(await target`SELECT value FROM options WHERE key = 'SystemName'`).toEqual([{ value: TRICKY }])
      const counts = await target`SELECT (SELECT count(*)::int FROM logs WHERE type = 2) AS consume, (SELECT count(*)::int FROM logs WHERE type = 1) AS topup, (SELECT count(*)::int FROM usage_hourly) AS hourly, (SELECT count(*)::int FROM revoked_sessions) AS revoked`
      expect(counts).toEqual([{ consume: 3, topup: 1, hourly: 1, revoked: 1 }])
      // identity sequences: past the copied ids and past the deleted channel's id
      const [nextChannel] = await target`INSERT INTO channels (type, name, key) VALUES (1, 'new', 'k') RETURNING id`
      expect(nextChannel.id).toBe(4)
      const [nextUser] = await target`INSERT INTO users (username, password) VALUES ('carol', 'x') RETURNING id`
      expect(nextUser.id).toBe(sqlite.query<{ m: number }, []>('SELECT max(id) AS m FROM users').get()!.m + 1)
      await target`INSERT INTO logs (type) VALUES (4)`
    } finally {
      sqlite.close()
      await target.close()
    }

    // the database is no longer empty: a second run is refused and changes nothing
    const again = await tollgate(['migrate-db', '--to', url, '--data-dir', dataDir])
    expect(again.code).toBe(3)
    expect(again.stderr).toContain('is not empty')
    expect(again.stderr).not.toContain(pg.password)
    const check = new SQL({ url })
    expect(await check`SELECT count(*)::int AS n FROM users WHERE username = 'carol'`).toEqual([{ n: 1 }])
    await check.close()
  }, 60_000)

  test('the secrets: where to find them, never their values unless --show-secrets; the crypto secret is checked', async () => {
    const session = readFileSync(join(dataDir, 'session.secret'), 'utf8').trim()
    const crypto = readFileSync(join(dataDir, 'crypto.secret'), 'utf8').trim()
    const quiet = await tollgate(['migrate-db', '--to', await pg.createDatabase(), '--data-dir', dataDir])
    expect(quiet.code).toBe(0)
    expect(quiet.stdout).toContain(`SESSION_SECRET="$(cat ${join(dataDir, 'session.secret')})"`)
    expect(quiet.stdout).toContain(`CRYPTO_SECRET="$(cat ${join(dataDir, 'crypto.secret')})"`)
    expect(quiet.stdout).toContain('The crypto secret opens the copied channel keys.')
    expect(quiet.stdout + quiet.stderr).not.toContain(session)
    expect(quiet.stdout + quiet.stderr).not.toContain(crypto)
    const shown = await tollgate(['migrate-db', '--to', await pg.createDatabase(), '--data-dir', dataDir, '--show-secrets'])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain(`SESSION_SECRET=${session}\n`)
    expect(shown.stdout).toContain(`CRYPTO_SECRET=${crypto}\n`)
    // a wrong CRYPTO_SECRET in the environment is caught now, not on the first node
    const wrong = await tollgate(['migrate-db', '--to', await pg.createDatabase(), '--data-dir', dataDir], { env: { CRYPTO_SECRET: 'w'.repeat(40) } })
    expect(wrong.code).toBe(0)
    expect(wrong.stdout).toContain('does NOT open the copied channel keys')
  }, 60_000)

  test('--from a backup file reads its .secrets; DATABASE_URL is the default target', async () => {
    const backup = join(temp(), 'snap.db')
    snapshotDatabase({ sqlitePath: join(dataDir, 'tollgate.db'), dataDir, sessionSecret: undefined, cryptoSecret: undefined }, backup, { secrets: true })
    const url = await pg.createDatabase()
    const run = await tollgate(['migrate-db', '--from', backup], { env: { DATABASE_URL: url, DATA_DIR: join(temp(), 'unrelated') } })
    expect([run.code, run.stderr]).toEqual([0, expect.any(String)])
    expect(run.stdout).toContain(`${backup}.secrets`)
    expect(run.stdout).toContain('The crypto secret opens the copied channel keys.')
    const check = new SQL({ url })
    expect(await check`SELECT value FROM options WHERE key = 'SystemName'`).toEqual([{ value: TRICKY }])
    await check.close()
  }, 60_000)

  test('refused while a gateway runs on the data directory (exit 3), nothing written', async () => {
    const gateway = await serve(dataDir)
    try {
      const url = await pg.createDatabase()
      const run = await tollgate(['migrate-db', '--to', url, '--data-dir', dataDir])
      expect(run.code).toBe(3)
      expect(run.stderr).toContain(`runs on ${dataDir}: stop it first`)
      const check = new SQL({ url })
      expect(await check`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`).toEqual([{ n: 0 }])
      await check.close()
    } finally {
      expect(await gateway.stop()).toBe(0)
    }
  }, 60_000)

  test('usage errors are 2, a missing source or an unreachable server is 1, and no password is echoed', async () => {
    const missing = await tollgate(['migrate-db', '--data-dir', dataDir])
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('--to postgres://')])
    const mysql = await tollgate(['migrate-db', '--to', 'mysql://u:hunter2@h/db', '--data-dir', dataDir])
    expect([mysql.code, mysql.stderr.includes('hunter2')]).toEqual([2, false])
    const both = await tollgate(['migrate-db', '--to', pg.url, '--data-dir', dataDir, '--from', 'x.db'])
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('give one')])
    const nothing = await tollgate(['migrate-db', '--to', pg.url, '--data-dir', join(temp(), 'empty')])
    expect([nothing.code, nothing.stderr]).toEqual([1, expect.stringContaining('no database at')])
    const down = await tollgate(['migrate-db', '--to', `postgres://postgres:hunter2@127.0.0.1:${await freePort()}/x`, '--data-dir', dataDir])
    expect(down.code).toBe(1)
    expect(down.stderr).toContain('nothing was kept')
    expect(down.stderr).not.toContain('hunter2')
  }, 60_000)
})
