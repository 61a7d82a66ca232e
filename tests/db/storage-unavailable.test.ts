/**
 * Which database errors mean "not answering" (a 503 to retry) rather than a fault of the statement: checked on
 * the errors a real PostgreSQL server and Bun's client produce, and on SQLite's busy timeout.
 */
import { SQL } from 'bun'
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isStorageUnavailable } from '../../src/db/errors'
import { describeError } from '../../src/plugins/describe-error'
import { hasPostgres, sharedPostgres, type PgServer } from '../helpers/pg-server'
import { until } from '../helpers/wait'

const caught = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e)

test('a server that refuses the connection is unavailable, and renders as a 503 with retry-after', async () => {
  const sql = new SQL({ url: 'postgres://u:p@127.0.0.1:1/db', connectionTimeout: 2 })
  const error = await caught(sql`SELECT 1`)
  expect(isStorageUnavailable(error)).toBe(true)
  expect(describeError('UNKNOWN', error, false)).toEqual({ status: 503, code: 'storage_unavailable', message: 'the database is not answering: try again shortly', headers: { 'retry-after': '1' } })
  // wrapped, as Drizzle wraps a driver's error
  expect(isStorageUnavailable(new Error('Failed query', { cause: error }))).toBe(true)
})

test('SQLite busy past its timeout is unavailable; a constraint is not', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-busy-'))
  try {
    const a = new Database(join(dir, 'x.db'))
    const b = new Database(join(dir, 'x.db'))
    a.run('CREATE TABLE t (id INTEGER PRIMARY KEY)')
    b.run('PRAGMA busy_timeout = 10')
    a.run('BEGIN IMMEDIATE')
    let busy: unknown
    try {
      b.run('BEGIN IMMEDIATE')
    } catch (e) {
      busy = e
    }
    expect(isStorageUnavailable(busy)).toBe(true)
    a.run('INSERT INTO t VALUES (1)')
    let duplicate: unknown
    try {
      a.run('INSERT INTO t VALUES (1)')
    } catch (e) {
      duplicate = e
    }
    expect(isStorageUnavailable(duplicate)).toBe(false)
    a.run('COMMIT')
    a.close()
    b.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

const describePg = hasPostgres() ? describe : describe.skip
describePg('on a live PostgreSQL server', () => {
  let server: PgServer
  let sql: SQL
  beforeAll(async () => {
    server = await sharedPostgres()
    sql = new SQL({ url: await server.createDatabase(), max: 2 })
  }, 60_000)
  afterAll(() => sql?.close())

  test('a statement past its timeout is unavailable; a bad statement or a unique violation is not', async () => {
    const slow = await caught(sql.begin(async (tx) => {
      await tx`SET LOCAL statement_timeout = 20`
      await tx`SELECT pg_sleep(1)`
    }))
    expect(isStorageUnavailable(slow)).toBe(true)
    expect(isStorageUnavailable(await caught(sql`SELEC 1`))).toBe(false)
    await sql`CREATE TABLE u (id int PRIMARY KEY)`
    await sql`INSERT INTO u VALUES (1)`
    expect(isStorageUnavailable(await caught(sql`INSERT INTO u VALUES (1)`))).toBe(false)
    expect(describeError('UNKNOWN', await caught(sql`SELEC 1`), false).status).toBe(500)
  })

  test('a server that ends the session (shutdown, a DBA terminating it) is unavailable', async () => {
    const victim = new SQL({ url: server.url.replace(/\/[^/]*$/, '/postgres'), max: 1 })
    const [{ pid }] = await victim`SELECT pg_backend_pid() AS pid`
    const admin = server.client('postgres')
    const pending = caught(victim`SELECT pg_sleep(5)`)
    const running = async () => (await admin`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ${pid} AND query LIKE '%pg_sleep%' AND state = 'active'`)[0].n === 1
    await until(running, { what: 'the query running' })
    await admin`SELECT pg_terminate_backend(${pid})`
    const error = await pending
    expect(isStorageUnavailable(error)).toBe(true)
    await admin.close()
    await victim.close()
  })
})
