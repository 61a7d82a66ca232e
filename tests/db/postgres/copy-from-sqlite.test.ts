/**
 * The copy engine behind `migrate-db`, on a real SQLite file and a real PostgreSQL: COPY's text format,
 * the one-transaction rule (a failure leaves the target empty, and running again resumes), the emptiness
 * check, and sequences past ids SQLite's AUTOINCREMENT spent.
 */
import { SQL } from 'bun'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, openDatabase, type Db } from '../../../src/db/sqlite/client'
import { migrate } from '../../../src/db/sqlite/migrate'
import { copiedTables, copyField, copySqliteToPostgres, TargetNotEmptyError } from '../../../src/db/postgres/copy-from-sqlite'
import { migrations } from '../../../src/db/postgres/migrations'
import { hasPostgres, NO_POSTGRES, sharedPostgres, type PgServer } from '../../helpers/pg-server'

const describePg = hasPostgres() ? describe : describe.skip
if (!hasPostgres()) console.warn(`tests/db/postgres/copy-from-sqlite: ${NO_POSTGRES}`)

test("copyField: COPY's text format", () => {
  expect(copyField(null)).toBe('\\N')
  expect(copyField('\\N')).toBe('\\\\N')
  expect(copyField('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e')
  expect(copyField(true)).toBe('true')
  expect(copyField(5_000_000_000)).toBe('5000000000')
  const state = { nulReplaced: 0 }
  expect(copyField('x\0y', state)).toBe('x\uFFFDy')
  expect(state.nulReplaced).toBe(1)
})

test('every table of the schema is copied, parents before children', () => {
  const names = copiedTables().map((t) => t.name)
  expect(names.sort()).toEqual(['abilities', 'auth_challenges', 'billing_preferences', 'channels', 'custom_oauth_providers', 'email_codes', 'logs', 'options', 'passkeys', 'redemptions', 'revoked_sessions', 'subscription_plans', 'tasks', 'tokens', 'topups', 'two_factor_backup_codes', 'two_factors', 'usage_hourly', 'usage_hourly_model', 'user_bindings', 'user_notify_settings', 'user_subscriptions', 'users'])
  const order = copiedTables().map((t) => t.name)
  expect(order.indexOf('users')).toBeLessThan(order.indexOf('tokens'))
  expect(order.indexOf('channels')).toBeLessThan(order.indexOf('abilities'))
  expect(order.indexOf('subscription_plans')).toBeLessThan(order.indexOf('user_subscriptions'))
})

describePg('copySqliteToPostgres', () => {
  let server: PgServer
  let dir: string
  const dbs: Db[] = []
  const clients: SQL[] = []
  const sqliteWith = (setup: (db: Db) => void) => {
    const db = openDatabase(join(mkdtempSync(join(dir, 'db-')), 'tollgate.db'))
    dbs.push(db)
    migrate(db)
    setup(db)
    return db
  }
  const target = async () => {
    const client = new SQL({ url: await server.createDatabase() })
    clients.push(client)
    return client
  }
  const rowCounts = async (sql: SQL) =>
    Object.fromEntries(await Promise.all(copiedTables().map(async (t) => [t.name, (await sql.unsafe(`SELECT count(*)::int AS n FROM "${t.name}"`))[0].n])))

  beforeAll(async () => {
    server = await sharedPostgres()
    dir = mkdtempSync(join(tmpdir(), 'tollgate-copy-'))
  }, 60_000)
  afterAll(async () => {
    for (const db of dbs) closeDatabase(db)
    for (const client of clients) await client.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('a row PostgreSQL refuses rolls everything back: the target is empty and migrated, and a second run (the resume) copies all', async () => {
    const db = sqliteWith((db) => {
      db.$client.exec("INSERT INTO users (username, password) VALUES ('a', 'x'), ('b', 'y')")
      db.$client.exec("INSERT INTO logs (type, content) VALUES (2, 'kept')")
      // an orphan token: SQLite took it with foreign keys off; PostgreSQL's foreign key refuses it
      db.$client.exec('PRAGMA foreign_keys = OFF')
      db.$client.exec("INSERT INTO tokens (user_id, key_hash, key_hint) VALUES (99, 'h1', 'x')")
      db.$client.exec('PRAGMA foreign_keys = ON')
    })
    const sql = await target()
    await expect(copySqliteToPostgres(db.$client, sql)).rejects.toThrow(/copying tokens: .*foreign key/)
    expect(Object.values(await rowCounts(sql)).every((n) => n === 0)).toBe(true)
    expect(await sql`SELECT count(*)::int AS n FROM __tollgate_migrations`).toEqual([{ n: migrations.length }])
    db.$client.exec('DELETE FROM tokens WHERE user_id = 99')
    const report = await copySqliteToPostgres(db.$client, sql)
    expect(report.migrated).toEqual([]) // migrated by the failed run already
    expect(await rowCounts(sql)).toMatchObject({ users: 2, logs: 1, tokens: 0 })
  })

  test('NUL characters, which PostgreSQL text cannot hold, are counted and replaced; ids spent by AUTOINCREMENT stay spent', async () => {
    const db = sqliteWith((db) => {
      db.$client.exec("INSERT INTO logs (type, content) VALUES (5, 'bad' || char(0) || 'byte'), (2, 'fine')")
      db.$client.exec("INSERT INTO redemptions (name, key_hash, quota) VALUES ('a', 'k1', 1), ('b', 'k2', 2), ('c', 'k3', 3)")
      db.$client.exec("DELETE FROM redemptions WHERE name = 'c'") // id 3 was handed out: never again
    })
    const sql = await target()
    const report = await copySqliteToPostgres(db.$client, sql)
    expect(report.nulReplaced).toBe(1)
    expect(await sql`SELECT content FROM logs ORDER BY id`).toEqual([{ content: 'bad\uFFFDbyte' }, { content: 'fine' }])
    expect(report.tables.find((t) => t.table === 'redemptions')).toMatchObject({ source: 2, target: 2, nextId: 4, quotaSums: { quota: { source: 3, target: 3 } } })
    expect(await sql`INSERT INTO redemptions (name, key_hash) VALUES ('d', 'k4') RETURNING id`).toEqual([{ id: 4 }])
    expect(report.tables.find((t) => t.table === 'users')).toMatchObject({ source: 0, target: 0, nextId: 1 })
    expect(await sql`INSERT INTO users (username, password) VALUES ('first', 'x') RETURNING id`).toEqual([{ id: 1 }])
  })

  test('a database with rows in any of our tables is refused before anything is written', async () => {
    const db = sqliteWith((db) => db.$client.exec("INSERT INTO users (username, password) VALUES ('a', 'x')"))
    const sql = await target()
    await sql`CREATE TABLE revoked_sessions (id text PRIMARY KEY, expires_at bigint NOT NULL)`
    await sql`INSERT INTO revoked_sessions VALUES ('s', 1)`
    const refused = copySqliteToPostgres(db.$client, sql)
    await expect(refused).rejects.toThrow(TargetNotEmptyError)
    await expect(refused).rejects.toThrow('rows in revoked_sessions')
    expect(await sql`SELECT to_regclass('users') IS NULL AS untouched`).toEqual([{ untouched: true }])
  })
})
