/**
 * A PostgreSQL DATABASE_URL: parsed into `config.database`, never silently read as SQLite; `serve` refuses it
 * clearly until the repositories run on PostgreSQL, and the SQLite-bound commands say so too.
 */
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { loadConfig } from '../../src/config'
import { tollgate } from '../ops/process'

test('postgres:// and postgresql:// URLs become config.database, with pool size and statement timeout', () => {
  const config = loadConfig({ DATABASE_URL: 'postgres://me:s3cret@db.internal:5433/tollgate?sslmode=require', DATA_DIR: '/d' })
  expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://me:s3cret@db.internal:5433/tollgate?sslmode=require', poolSize: 10, statementTimeoutMs: 30_000 })
  // the SQLite file stays where DATA_DIR puts it: what migrate-db copies from
  expect(config.sqlitePath).toBe(join('/d', 'tollgate.db'))
  expect(loadConfig({ DATABASE_URL: 'postgresql://h/db', DATABASE_POOL_SIZE: '25', DATABASE_STATEMENT_TIMEOUT_SECONDS: '2.5' }).database).toEqual({
    kind: 'postgres',
    url: 'postgresql://h/db',
    poolSize: 25,
    statementTimeoutMs: 2500,
  })
  expect(loadConfig({ DATABASE_URL: 'POSTGRES://h/db', DATABASE_STATEMENT_TIMEOUT_SECONDS: '0' }).database).toMatchObject({ kind: 'postgres', statementTimeoutMs: 0 })
})

test('SQLite stays the default, and a SQLite DATABASE_URL is SQLite', () => {
  expect(loadConfig({ DATA_DIR: '/d' }).database).toEqual({ kind: 'sqlite', path: join('/d', 'tollgate.db') })
  expect(loadConfig({ DATABASE_URL: 'sqlite:///srv/t.db' }).database).toEqual({ kind: 'sqlite', path: '/srv/t.db' })
  expect(loadConfig({ SQLITE_PATH: '/y.db' }).database).toEqual({ kind: 'sqlite', path: '/y.db' })
})

test('bad PostgreSQL settings are refused by name, without echoing the password', () => {
  expect(() => loadConfig({ DATABASE_URL: 'postgres://h/db', DATABASE_POOL_SIZE: '0' })).toThrow('DATABASE_POOL_SIZE')
  expect(() => loadConfig({ DATABASE_URL: 'postgres://h/db', DATABASE_STATEMENT_TIMEOUT_SECONDS: '-1' })).toThrow('DATABASE_STATEMENT_TIMEOUT_SECONDS')
  expect(() => loadConfig({ DATABASE_URL: 'postgres://me:hunter2@/db' })).toThrow('not a PostgreSQL URL')
  try {
    loadConfig({ DATABASE_URL: 'postgres://me:hunter2@/db' })
  } catch (error) {
    expect((error as Error).message).not.toContain('hunter2')
  }
})

test('serve refuses a PostgreSQL DATABASE_URL clearly (exit 3) instead of serving SQLite', async () => {
  const run = await tollgate(['serve', '--port', '0'], { env: { DATABASE_URL: 'postgres://me:hunter2@127.0.0.1:1/tollgate', HOST: '127.0.0.1' } })
  expect(run.code).toBe(3)
  expect(run.stderr).toContain('PostgreSQL storage is not served yet: DATABASE_URL names postgres://…@127.0.0.1:1/tollgate')
  expect(run.stderr).toContain('Unset DATABASE_URL')
  expect(run.stdout + run.stderr).not.toContain('hunter2')
  expect(run.stdout).not.toContain('listening on')
  // the same without the word serve
  expect((await tollgate([], { env: { DATABASE_URL: 'postgresql://h/db' } })).code).toBe(3)
})

test('the SQLite commands refuse it as a usage error naming DATABASE_URL', async () => {
  for (const args of [['doctor'], ['create-token', '--user', 'root'], ['backup', 'x.db']]) {
    const run = await tollgate(args, { env: { DATABASE_URL: 'postgres://me:hunter2@db/tollgate' } })
    expect([args[0], run.code]).toEqual([args[0], 2])
    expect(run.stderr).toContain('DATABASE_URL names a PostgreSQL database')
    expect(run.stderr).not.toContain('hunter2')
  }
})
