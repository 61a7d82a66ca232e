/**
 * The import from a MySQL / MariaDB new-api database (new-api's SQL_DSN): a real MariaDB server from Debian's
 * mariadb-server package, started here in a temp dir, read through Bun's SQL client with the DSN in Go's form
 * (`user:pass@tcp(host:port)/db?…`) and in the URL form.
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
import { hasMariadb, startMariadb, type TestServer } from './servers'

const describeMy = hasMariadb() ? describe : describe.skip
if (!hasMariadb()) console.warn('tests/import/mysql: no MariaDB server binaries: skipped (apt-get install mariadb-server)')

describeMy('from MySQL / MariaDB', () => {
  let server: TestServer
  let upstream: FakeUpstream
  let fixture: NewApiFixture
  let one: OneApiFixture
  const dirs: string[] = []
  const apps: TestApp[] = []

  beforeAll(async () => {
    server = await startMariadb('newapi')
    upstream = await startFakeUpstream({ keys: [UPSTREAM_KEYS.openai] })
    fixture = await newApiRows(upstream.url)
    one = await oneApiRows(upstream.url)
    const sql = new SQL({ adapter: 'mysql', hostname: server.host, port: server.port, username: server.user, password: server.password, database: 'newapi' })
    await writeNetworkSource(sql, 'mysql', NEW_API_TABLES, fixture.rows)
    await sql.close()
  }, 90_000)

  afterAll(async () => {
    for (const app of apps) await app.close()
    await upstream?.stop()
    await server?.stop()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }, 30_000)

  test("new-api through Go's DSN form, as new-api's SQL_DSN has it", async () => {
    const dataDir = tempDir('my')
    dirs.push(dataDir)
    // the password holds '@', ':', '/' and '#', unescaped, as Go's driver takes it
    const dsn = `${server.user}:${server.password}@tcp(${server.host}:${server.port})/newapi?charset=utf8mb4&parseTime=True&loc=Local`
    const result = await importInto(dataDir, dsn, ['--logs-since', '2000-01-01'])
    expect(result.report.error).toBeNull()
    expect(result.exitCode).toBe(0)
    expect(result.report.source).toMatchObject({ engine: 'mysql', schema: 'new-api' })
    expect(result.report.source.location).not.toContain(server.password)
    const app = await startImported(dataDir)
    apps.push(app)
    await checkNewApiImport(app, fixture, upstream, result)
  }, 60_000)

  test('one-api through the mysql:// URL form', async () => {
    const admin = new SQL({ adapter: 'mysql', hostname: server.host, port: server.port, username: server.user, password: server.password, database: 'newapi' })
    await admin.unsafe('DROP TABLE IF EXISTS logs, quota_data, abilities, options, redemptions, channels, tokens, users, top_ups, setups')
    await writeNetworkSource(admin, 'mysql', ONE_API_TABLES, one.rows)
    await admin.close()
    const dataDir = tempDir('my-one')
    dirs.push(dataDir)
    const result = await importInto(dataDir, server.url, ['--logs-since', '2000-01-01'])
    expect(result.report.error).toBeNull()
    expect(result.report.source).toMatchObject({ engine: 'mysql', schema: 'one-api' })
    const app = await startImported(dataDir)
    apps.push(app)
    await checkOneApiImport(app, one, result.report)
  }, 60_000)
})
