/**
 * `tollgate import new-api` into a PostgreSQL DATABASE_URL (issue #15 on #17's storage): the same import as into
 * SQLite, checked through a gateway running on that database; refused while a gateway is connected, refused
 * into a non-empty database without --merge, and a dry run leaves no row.
 */
import { SQL } from 'bun'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import { hasPostgres, NO_POSTGRES, sharedPostgres, type PgServer } from '../helpers/pg-server'
import { startTestApp, type TestApp } from '../helpers/test-app'
import { writeSqliteSource } from './fixtures/load'
import { newApiRows, UPSTREAM_KEYS, type NewApiFixture } from './fixtures/rows'
import { NEW_API_TABLES } from './fixtures/schema'
import { checkNewApiImport, importInto, tempDir } from './helpers'

const describePg = hasPostgres() ? describe : describe.skip
if (!hasPostgres()) console.warn(`tests/import/postgres-target: ${NO_POSTGRES}`)

const CRYPTO_SECRET = 'c'.repeat(44)

describePg('into PostgreSQL', () => {
  let server: PgServer
  let upstream: FakeUpstream
  let fixture: NewApiFixture
  let sourcePath: string
  const dirs: string[] = []
  const apps: TestApp[] = []
  const dir = () => {
    const d = tempDir('pg-target')
    dirs.push(d)
    return d
  }
  /** the row counts of the tables an import fills */
  const counts = async (url: string) => {
    const sql = new SQL(url)
    try {
      const [row] = await sql`SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM tokens)::int AS tokens,
        (SELECT count(*) FROM channels)::int AS channels, (SELECT count(*) FROM logs)::int AS logs, (SELECT count(*) FROM options)::int AS options`
      return row as Record<string, number>
    } finally {
      await sql.close()
    }
  }

  beforeAll(async () => {
    server = await sharedPostgres()
    upstream = await startFakeUpstream({ keys: [UPSTREAM_KEYS.openai] })
    fixture = await newApiRows(upstream.url)
    const sourceDir = dir()
    sourcePath = join(sourceDir, 'one-api.db')
    writeSqliteSource(sourcePath, NEW_API_TABLES, fixture.rows)
  }, 60_000)
  afterAll(async () => {
    for (const app of apps) await app.close()
    await upstream?.stop()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })

  test('a new-api SQLite file into an empty PostgreSQL database: a gateway on it serves what came over', async () => {
    const url = await server.createDatabase()
    const dataDir = dir()
    const result = await importInto(dataDir, sourcePath, ['--logs-since', '2000-01-01'], [], { DATABASE_URL: url, CRYPTO_SECRET })
    expect(result.report.error).toBeNull()
    expect(result.exitCode).toBe(0)
    expect(result.report.target).toMatchObject({ sqlite_path: null, dry_run: false })
    expect(result.report.target.database_url).toContain('127.0.0.1')
    expect(result.report.target.database_url).not.toContain(encodeURIComponent(server.password))
    expect(result.report.tables.logs).toMatchObject({ read: 5, imported: 5 })
    const app = await startTestApp({ ROOT_PASSWORD: '', DATABASE_URL: url, CRYPTO_SECRET }, undefined, dataDir)
    apps.push(app)
    await app.deps.options.set('SelfUseModeEnabled', false)
    expect(app.deps.repos.dialect).toBe('postgres')
    await checkNewApiImport(app, fixture, upstream, result)
    // the sequences moved past the imported ids (and the soft-deleted ones): a new user gets a fresh id
    const maxSourceId = Math.max(...fixture.rows.users!.map((u) => Number(u.id)))
    const fresh = await app.deps.repos.users.insert({ username: 'after-import', password: 'x' })
    expect(fresh.id).toBeGreaterThan(maxSourceId)
    // the hourly table holds the imported usage, as the SQLite import leaves it
    const hours = await app.deps.repos.logs.hourly({ start: fixture.hours.old - 3600, end: fixture.hours.recent + 3600 })
    expect(hours.reduce((sum, h) => sum + h.count, 0)).toBe(7 + 2 + 3)

    // a second import while that gateway is connected: refused, nothing written; once it is stopped, refused as not empty
    const { logs: _, ...before } = await counts(url) // the gateway's own log rows may still land
    const busy = await importInto(dataDir, sourcePath, ['--merge'], [], { DATABASE_URL: url, CRYPTO_SECRET })
    expect(busy.exitCode).toBe(1)
    expect(busy.report.error).toContain('a Tollgate gateway is connected to this database')
    expect(await counts(url)).toMatchObject(before)
    await app.close()
    apps.splice(apps.indexOf(app), 1)
    const stopped = await counts(url)
    const again = await importInto(dataDir, sourcePath, [], [], { DATABASE_URL: url, CRYPTO_SECRET })
    expect(again.exitCode).toBe(3)
    expect(again.report.error).toContain('not empty')
    expect(await counts(url)).toEqual(stopped)
  }, 60_000)

  test('a dry run writes no row; without CRYPTO_SECRET a PostgreSQL target is a usage error', async () => {
    const url = await server.createDatabase()
    const result = await importInto(dir(), sourcePath, ['--dry-run', '--logs-since', '2000-01-01'], [], { DATABASE_URL: url, CRYPTO_SECRET })
    expect(result.exitCode).toBe(0)
    expect(result.report.outcome).toBe('dry-run')
    expect(result.report.tables.users).toMatchObject({ read: 6, imported: 5 })
    expect(await counts(url)).toEqual({ users: 0, tokens: 0, channels: 0, logs: 0, options: 0 })
    await expect(importInto(dir(), sourcePath, [], [], { DATABASE_URL: url })).rejects.toThrow(/set CRYPTO_SECRET/)
  }, 60_000)
})
