import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { LogType } from '../../src/db/repos'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import type { TestApp } from '../helpers/test-app'
import { writeSqliteSource } from './fixtures/load'
import { newApiRows, oneApiRows, UPSTREAM_KEYS, type NewApiFixture } from './fixtures/rows'
import { NEW_API_TABLES, ONE_API_TABLES } from './fixtures/schema'
import { checkNewApiImport, dumpDb, importInto, startImported, tempDir, waitUnlocked } from './helpers'

let upstream: FakeUpstream
let fixture: NewApiFixture
let sourceDir: string
let sourcePath: string
const dirs: string[] = []
const apps: TestApp[] = []

beforeAll(async () => {
  upstream = await startFakeUpstream({ keys: [UPSTREAM_KEYS.openai] })
  fixture = await newApiRows(upstream.url)
  sourceDir = tempDir('src')
  sourcePath = join(sourceDir, 'one-api.db')
  writeSqliteSource(sourcePath, NEW_API_TABLES, fixture.rows)
})

afterAll(async () => {
  for (const app of apps) await app.close()
  await upstream.stop()
  for (const dir of [sourceDir, ...dirs]) rmSync(dir, { recursive: true, force: true })
})

const newDataDir = () => {
  const dir = tempDir('data')
  dirs.push(dir)
  return dir
}

describe('from a new-api SQLite file', () => {
  let dataDir: string
  let app: TestApp

  test('imports users, keys, channels, codes, options and logs, and the gateway serves them', async () => {
    dataDir = newDataDir()
    // new-api's SQLITE_PATH form, driver options and all
    const result = await importInto(dataDir, `${sourcePath}?_busy_timeout=30000`, ['--logs-since', new Date((fixture.hours.old - 3600) * 1000).toISOString().slice(0, 10)])
    expect(result.exitCode).toBe(0)
    expect(result.reportPath).toBe(join(dataDir, 'import-report.json'))
    expect(JSON.parse(readFileSync(result.reportPath, 'utf8'))).toEqual(result.report)
    app = await startImported(dataDir)
    apps.push(app)
    await checkNewApiImport(app, fixture, upstream, result)
  }, 60_000)

  test('logs and hourly usage from --logs-since: the logs as rows, quota_data for the hours before them', async () => {
    const sqlite = app.db.$client
    await app.deps.repos.drainMetering()
    const imported = sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM logs WHERE created_at < unixepoch() - 600').get()!.n
    expect(imported).toBe(5)
    const first = sqlite.query<Record<string, unknown>, [number]>('SELECT * FROM logs WHERE created_at = ?').get(fixture.hours.recent + 60)!
    expect(first).toMatchObject({ type: LogType.consume, user_id: 2, token_id: 1, channel_id: 1, quota: 900, prompt_tokens: 100, completion_tokens: 50, cache_read_tokens: 20, first_token_ms: 350, use_time_ms: 2000, is_stream: 1 })
    expect(JSON.parse(first.other as string)).toEqual({ frt: 350, cache_tokens: 20, model_ratio: 0.075 }) // admin_info dropped
    const mapped = sqlite.query<Record<string, unknown>, [number]>('SELECT * FROM logs WHERE created_at = ?').get(fixture.hours.recent + 120)!
    expect(mapped).toMatchObject({ model_name: 'gpt-4o', upstream_model: 'gpt-4o-mini' })
    const refund = sqlite.query<Record<string, unknown>, [number]>('SELECT * FROM logs WHERE created_at = ?').get(fixture.hours.recent + 180)!
    expect(refund).toMatchObject({ type: LogType.system, content: '[refund] task refund', quota: 300 })
    const error = sqlite.query<Record<string, unknown>, [number]>('SELECT * FROM logs WHERE created_at = ?').get(fixture.hours.recent + 240)!
    expect(error).toMatchObject({ type: LogType.error, status_code: 500 })

    const hourly = (hour: number) =>
      sqlite.query<{ user_id: number; model_name: string; count: number; quota: number; token_used: number }, [number]>('SELECT user_id, model_name, count, quota, token_used FROM usage_hourly WHERE hour = ? ORDER BY user_id, model_name').all(hour)
    // the old hour has no logs any more: new-api's quota_data is what the dashboard had
    expect(hourly(fixture.hours.old)).toEqual([
      { user_id: 2, model_name: 'gpt-4o-mini', count: 7, quota: 42_000, token_used: 5000 },
      { user_id: 3, model_name: 'gpt-4o-mini', count: 2, quota: 6_000, token_used: 900 },
    ])
    // from the first imported log on, the hourly rows are the sums of the logs (what /api/log/stat adds up)
    expect(hourly(fixture.hours.recent)).toEqual([
      { user_id: 2, model_name: 'gpt-4o', count: 1, quota: 600, token_used: 100 },
      { user_id: 2, model_name: 'gpt-4o-mini', count: 1, quota: 900, token_used: 150 },
      { user_id: 3, model_name: 'gpt-4o-mini', count: 1, quota: 700, token_used: 90 },
    ])
    const report = JSON.parse(readFileSync(join(dataDir, 'import-report.json'), 'utf8'))
    expect(report.tables.logs).toMatchObject({ read: 5, imported: 5 })
    expect(report.tables.quota_data).toEqual({ read: 4, imported: 2, skipped: 2, skipped_by_reason: { 'hour covered by the imported logs': 2 } })
    expect(report.issues.find((i: { table: string; field: string }) => i.table === 'quota_data' && i.field === 'quota').ids).toEqual([4])
    expect(report.issues.find((i: { table: string; field: string }) => i.table === 'logs' && i.field === 'type')).toMatchObject({ value: '6', ids: [3] })
  })

  test('a second import into the same data dir is refused without --merge, and changes nothing', async () => {
    await app.close()
    apps.splice(apps.indexOf(app), 1)
    await waitUnlocked(join(dataDir, 'tollgate.db'))
    const before = dumpDb(join(dataDir, 'tollgate.db'))
    const result = await importInto(dataDir, sourcePath)
    expect(result.report.error).toContain('not empty')
    expect(result.exitCode).toBe(3)
    expect(result.report.outcome).toBe('refused')
    expect(result.report.error).toContain('not empty')
    expect(result.report.error).toContain('--merge')
    expect(dumpDb(join(dataDir, 'tollgate.db'))).toBe(before)
  })

  test('--merge adds a one-api database: taken names and keys are skipped and reported, nothing is overwritten', async () => {
    const one = await oneApiRows(upstream.url)
    const onePath = join(sourceDir, 'one.db')
    writeSqliteSource(onePath, ONE_API_TABLES, one.rows)
    const result = await importInto(dataDir, onePath, ['--merge'])
    expect(result.exitCode).toBe(0)
    expect(result.report.source.schema).toBe('one-api')
    expect(result.report.tables.users).toMatchObject({ read: 2, imported: 0, skipped: 2, skipped_by_reason: { 'username taken in the target': 2 } })
    expect(result.report.tables.tokens).toMatchObject({ read: 3, imported: 0, skipped_by_reason: { 'owner not imported': 3 } })
    expect(result.report.tables.channels).toMatchObject({ read: 7, imported: 7 })
    const merged = await startImported(dataDir)
    apps.push(merged)
    expect((await merged.deps.repos.users.findByUsername('alice'))!.email).toBe('alice@example.com')
    expect((await merged.deps.repos.users.findByUsername('alice'))!.quota).toBeGreaterThan(5_000_000 - 10_000) // new-api's alice, not one-api's
    // merged channels got new ids after the existing ones; the existing options were kept
    expect((await merged.deps.repos.channels.all()).length).toBe(13)
    expect(merged.deps.options.get('SystemName')).toBe('My New API')
    expect(result.report.issues.some((i) => i.table === 'options' && i.field === 'SystemName' && i.note.includes('target'))).toBe(true)
    await merged.close()
    apps.splice(apps.indexOf(merged), 1)
    await waitUnlocked(join(dataDir, 'tollgate.db'))
  })
})

describe('--dry-run', () => {
  test('into a new data dir: the full report, and no database file', async () => {
    const dataDir = newDataDir()
    const result = await importInto(dataDir, sourcePath, ['--dry-run', '--logs-since', '2000-01-01'])
    expect(result.exitCode).toBe(0)
    expect(result.report.outcome).toBe('dry-run')
    expect(result.report.target.dry_run).toBe(true)
    expect(result.report.tables.users).toMatchObject({ read: 6, imported: 5 })
    expect(result.report.tables.logs).toMatchObject({ read: 5, imported: 5 })
    expect(existsSync(join(dataDir, 'tollgate.db'))).toBe(false)
    expect(existsSync(join(dataDir, 'crypto.secret'))).toBe(false)
    expect(existsSync(result.reportPath)).toBe(true)
  })

  test('into an existing data dir: the database bytes stay the same', async () => {
    const dataDir = newDataDir()
    expect((await importInto(dataDir, sourcePath)).exitCode).toBe(0)
    const before = readFileSync(join(dataDir, 'tollgate.db'))
    const dry = await importInto(dataDir, sourcePath, ['--dry-run', '--merge', '--report', join(dataDir, 'dry.json')])
    expect(dry.exitCode).toBe(0)
    // every row conflicts with what the first import wrote, and the dry run says so
    expect(dry.report.tables.users).toMatchObject({ imported: 0, skipped_by_reason: { 'username taken in the target': 5 } })
    expect(readFileSync(join(dataDir, 'tollgate.db')).equals(before)).toBe(true)
    const refused = await importInto(dataDir, sourcePath, ['--dry-run'])
    expect(refused.exitCode).toBe(3)
  })
})
