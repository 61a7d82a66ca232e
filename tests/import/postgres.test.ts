/**
 * The import from a PostgreSQL new-api / one-api database: a real PostgreSQL server (Debian's binaries, started
 * here in a temp dir), the tables written from their GORM models, read through Bun's SQL client.
 */
import { SQL } from 'bun'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import type { TestApp } from '../helpers/test-app'
import { writeNetworkSource } from './fixtures/load'
import { newApiRows, oneApiRows, UPSTREAM_KEYS, type NewApiFixture, type OneApiFixture } from './fixtures/rows'
import { NEW_API_TABLES, ONE_API_TABLES } from './fixtures/schema'
import { checkNewApiImport, checkOneApiImport, importInto, startImported, tempDir } from './helpers'
import { hasPostgres, startPostgres, type TestServer } from './servers'

const describePg = hasPostgres() ? describe : describe.skip
if (!hasPostgres()) console.warn('tests/import/postgres: no PostgreSQL binaries under /usr/lib/postgresql: skipped (apt-get install postgresql)')

describePg('from PostgreSQL', () => {
  let server: TestServer
  let upstream: FakeUpstream
  let fixture: NewApiFixture
  let one: OneApiFixture
  const dirs: string[] = []
  const apps: TestApp[] = []

  beforeAll(async () => {
    server = await startPostgres('newapi')
    upstream = await startFakeUpstream({ keys: [UPSTREAM_KEYS.openai] })
    fixture = await newApiRows(upstream.url)
    one = await oneApiRows(upstream.url)
    const admin = new SQL({ adapter: 'postgres', hostname: server.host, port: server.port, username: server.user, password: server.password, database: 'newapi' })
    await writeNetworkSource(admin, 'postgres', NEW_API_TABLES, fixture.rows)
    await admin.unsafe('CREATE DATABASE oneapi')
    await admin.close()
    const oneSql = new SQL({ adapter: 'postgres', hostname: server.host, port: server.port, username: server.user, password: server.password, database: 'oneapi' })
    await writeNetworkSource(oneSql, 'postgres', ONE_API_TABLES, one.rows)
    await oneSql.close()
  }, 60_000)

  afterAll(async () => {
    for (const app of apps) await app.close()
    await upstream?.stop()
    await server?.stop()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }, 30_000)

  test('new-api: everything the issue asks, read over postgres:// with a password that needs URL-encoding', async () => {
    const dataDir = tempDir('pg')
    dirs.push(dataDir)
    const result = await importInto(dataDir, server.url, ['--logs-since', '2000-01-01'])
    expect(result.report.error).toBeNull()
    expect(result.exitCode).toBe(0)
    expect(result.report.source).toMatchObject({ engine: 'postgres', schema: 'new-api' })
    expect(result.report.source.location).not.toContain(server.password)
    // PostgreSQL hands bigint columns over as strings and booleans as booleans: the same numbers arrive
    expect(result.report.tables.logs).toMatchObject({ read: 5, imported: 5 })
    const app = await startImported(dataDir)
    apps.push(app)
    await checkNewApiImport(app, fixture, upstream, result)
  }, 60_000)

  test("one-api: its type numbers, its tokens' models and subnet, its Azure config", async () => {
    const dataDir = tempDir('pg-one')
    dirs.push(dataDir)
    const result = await importInto(dataDir, server.url.replace(/\/newapi$/, '/oneapi'), ['--logs-since', '2000-01-01'])
    expect(result.report.error).toBeNull()
    expect(result.report.source.schema).toBe('one-api')
    const app = await startImported(dataDir)
    apps.push(app)
    await checkOneApiImport(app, one, result.report)
  }, 60_000)
})
