import { afterAll, beforeAll, expect, test } from 'bun:test'
import { LogType, type NewLog } from '../../src/db/repos'
import { pruneLogs } from '../../src/metering/retention'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestApp, type TestApp } from '../helpers/test-app'

let app: TestApp
beforeAll(async () => {
  // SQLite whatever TOLLGATE_TEST_POSTGRES says: these tests are about the file's free pages (PostgreSQL's
  // retention runs the same deleteBefore, covered by the repository tests on both dialects)
  app = await startTestApp({ SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'tollgate-retention-')), 'tollgate.db') })
})
afterAll(() => app.stop())

const DAY = 86_400

test('rows older than LogRetentionDays are deleted (in batches), newer ones stay, and the file gives the space back', async () => {
  const now = Math.floor(Date.now() / 1000)
  const padding = 'x'.repeat(500)
  const rows: NewLog[] = []
  for (let i = 0; i < 12_000; i++) rows.push({ type: LogType.consume, createdAt: now - 40 * DAY + i, modelName: 'old', content: padding })
  for (let i = 0; i < 300; i++) rows.push({ type: LogType.consume, createdAt: now - DAY + i, modelName: 'new', content: padding })
  await app.deps.repos.logs.insertMany(rows)
  const sqlite = app.db.$client
  const pages = () => (sqlite.query('PRAGMA page_count').get() as { page_count: number }).page_count
  const before = pages()

  await app.deps.options.set('LogRetentionDays', 0)
  expect(await pruneLogs({ options: app.deps.options, logs: app.deps.repos.logs }, now)).toBe(0) // 0 keeps everything

  await app.deps.options.set('LogRetentionDays', 30)
  expect(await app.deps.metering.retention.runOnce()).toBe(12_000)
  expect(await app.deps.repos.logs.count({})).toBe(300)
  expect(await app.deps.repos.logs.count({ modelName: 'old' })).toBe(0)
  expect((sqlite.query('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum).toBe(2) // incremental
  expect((sqlite.query('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count).toBe(0)
  expect(pages()).toBeLessThan(before / 5)
  // the hourly usage the dashboards read outlives the rows
  const old = (await app.deps.repos.logs.hourly({ start: now - 41 * DAY, end: now })).filter((h) => h.modelName === 'old')
  expect(old.reduce((sum, h) => sum + h.count, 0)).toBe(12_000)
})

test('retention on a file without incremental auto-vacuum deletes the rows and stops (the free list stays)', async () => {
  const now = Math.floor(Date.now() / 1000)
  const rows: NewLog[] = Array.from({ length: 2_000 }, (_, i) => ({ type: LogType.consume, createdAt: now - 40 * DAY + i, modelName: 'old', content: 'y'.repeat(500) }))
  await app.deps.repos.logs.insertMany(rows)
  let compacts = 0
  const logs = {
    deleteBefore: app.deps.repos.logs.deleteBefore,
    optimize: app.deps.repos.logs.optimize,
    freePages: app.deps.repos.logs.freePages,
    compact: async () => void compacts++, // as SQLite does when auto_vacuum is NONE: nothing
  }
  await app.deps.options.set('LogRetentionDays', 30)
  expect(await pruneLogs({ options: app.deps.options, logs }, now)).toBe(2_000)
  expect(compacts).toBe(1)
  expect(await app.deps.repos.logs.freePages()).toBeGreaterThan(0)
  await app.deps.repos.logs.compact() // leave the file as the first test expects of others
})
