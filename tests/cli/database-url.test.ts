/**
 * A PostgreSQL DATABASE_URL: parsed into `config.database`, never silently read as SQLite; `serve` wants the
 * shared secrets with it, and the SQLite-bound commands say they are SQLite's.
 */
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { loadConfig } from '../../src/config'
import { tollgate } from '../ops/process'

test('postgres:// and postgresql:// URLs become config.database, with pool size and statement timeout', () => {
  const config = loadConfig({ DATABASE_URL: 'postgres://me:s3cret@db.internal:5433/tollgate?sslmode=require', DATA_DIR: '/d' })
  expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://me:s3cret@db.internal:5433/tollgate?sslmode=require', poolSize: 10, statementTimeoutMs: 30_000, holdTtlSeconds: 45 })
  // the SQLite file stays where DATA_DIR puts it: what migrate-db copies from
  expect(config.sqlitePath).toBe(join('/d', 'tollgate.db'))
  expect(loadConfig({ DATABASE_URL: 'postgresql://h/db', DATABASE_POOL_SIZE: '25', DATABASE_STATEMENT_TIMEOUT_SECONDS: '2.5', QUOTA_HOLD_TTL_SECONDS: '5' }).database).toEqual({
    kind: 'postgres',
    url: 'postgresql://h/db',
    poolSize: 25,
    statementTimeoutMs: 2500,
    holdTtlSeconds: 5,
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
  expect(() => loadConfig({ DATABASE_URL: 'postgres://h/db', QUOTA_HOLD_TTL_SECONDS: '0' })).toThrow('QUOTA_HOLD_TTL_SECONDS')
  expect(() => loadConfig({ DATABASE_URL: 'postgres://h/db', DATABASE_STATEMENT_TIMEOUT_SECONDS: '-1' })).toThrow('DATABASE_STATEMENT_TIMEOUT_SECONDS')
  expect(() => loadConfig({ DATABASE_URL: 'postgres://me:hunter2@/db' })).toThrow('not a PostgreSQL URL')
  try {
    loadConfig({ DATABASE_URL: 'postgres://me:hunter2@/db' })
  } catch (error) {
    expect((error as Error).message).not.toContain('hunter2')
  }
})

test('serve on PostgreSQL without SESSION_SECRET and CRYPTO_SECRET refuses (exit 3), naming both, before it connects', async () => {
  const run = await tollgate(['serve', '--port', '0'], { env: { DATABASE_URL: 'postgres://me:hunter2@127.0.0.1:1/tollgate', HOST: '127.0.0.1' } })
  expect(run.code).toBe(3)
  expect(run.stderr).toContain('SESSION_SECRET and CRYPTO_SECRET must be set in the environment, the same on every node')
  expect(run.stdout + run.stderr).not.toContain('hunter2')
  expect(run.stdout).not.toContain('listening on')
  const one = await tollgate([], { env: { DATABASE_URL: 'postgresql://h/db', SESSION_SECRET: 'x'.repeat(32) } })
  expect(one.code).toBe(3)
  expect(one.stderr).toContain('CRYPTO_SECRET must be set')
  expect(one.stderr).not.toContain('SESSION_SECRET and')
})

test('serve on a PostgreSQL server that does not answer exits 1 naming it, without the password', async () => {
  const run = await tollgate(['serve', '--port', '0'], {
    env: { DATABASE_URL: 'postgres://me:hunter2@127.0.0.1:1/tollgate', HOST: '127.0.0.1', SESSION_SECRET: 's'.repeat(32), CRYPTO_SECRET: 'c'.repeat(32) },
  })
  expect(run.code).toBe(1)
  expect(run.stdout + run.stderr).toContain('cannot reach PostgreSQL at postgres://me:***@127.0.0.1:1/tollgate')
  expect(run.stdout + run.stderr).not.toContain('hunter2')
  expect(run.stdout).not.toContain('listening on')
})

test('the SQLite commands refuse it as a usage error naming DATABASE_URL', async () => {
  for (const args of [['doctor'], ['backup', 'x.db'], ['restore', 'x.db']]) {
    const run = await tollgate(args, { env: { DATABASE_URL: 'postgres://me:hunter2@db/tollgate' } })
    expect([args[0], run.code]).toEqual([args[0], 2])
    expect(run.stderr).toContain('DATABASE_URL names a PostgreSQL database')
    expect(run.stderr).not.toContain('hunter2')
  }
})
