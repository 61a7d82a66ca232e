import { afterAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, openDatabase, type Db } from '../../src/db/sqlite/client'
import { migrate } from '../../src/db/sqlite/migrate'
import { migrations } from '../../src/db/sqlite/migrations'
import { LogType, type NewLog } from '../../src/db/repos'
import { createLogRepo } from '../../src/db/sqlite/repos/logs'
import { pruneLogs } from '../../src/metering/retention'

/**
 * A database created before new files got `auto_vacuum = INCREMENTAL` (SQLite ignores the setting once a
 * table exists): the first start converts it once with VACUUM, keeping every row, and from then on
 * retention shrinks the file.
 */
const dir = mkdtempSync(join(tmpdir(), 'tollgate-old-db-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const DAY = 86_400
const pragma = (sqlite: Database, name: string) => (sqlite.query(`PRAGMA ${name}`).get() as Record<string, number>)[name]!

test('an old file without incremental auto-vacuum is converted once at migration; retention then gives the space back', async () => {
  const path = join(dir, 'old.db')
  // the old way: WAL, no auto_vacuum, the first two migrations, and some history
  const raw = new Database(path, { create: true, strict: true })
  raw.exec('PRAGMA journal_mode = WAL')
  const old = { $client: raw } as unknown as Db
  migrate(old, migrations.slice(0, 2))
  raw.exec('PRAGMA auto_vacuum = NONE') // this migrate already converts: undo it, as the old one never did it
  raw.exec('VACUUM')
  expect(pragma(raw, 'auto_vacuum')).toBe(0)
  const now = Math.floor(Date.now() / 1000)
  const padding = 'x'.repeat(500)
  const insert = raw.prepare('INSERT INTO logs (created_at, type, model_name, content) VALUES (?, ?, ?, ?)')
  raw.transaction(() => {
    for (let i = 0; i < 8000; i++) insert.run(now - 40 * DAY + i, LogType.consume, 'old', padding)
    for (let i = 0; i < 200; i++) insert.run(now - DAY + i, LogType.consume, 'new', padding)
  })()
  raw.close()

  const db = openDatabase(path) // sets INCREMENTAL, which SQLite ignores on a file with tables
  expect(pragma(db.$client, 'auto_vacuum')).toBe(0)
  const first = migrate(db)
  expect(first.applied).toEqual(migrations.slice(2).map((m) => m.tag))
  expect(first.vacuumed).toBe(true)
  expect(pragma(db.$client, 'auto_vacuum')).toBe(2)
  const repo = createLogRepo(db)
  expect(await repo.count({})).toBe(8200) // nothing lost
  expect(await repo.count({ type: LogType.consume, modelName: 'new' })).toBe(200) // the new indexes answer

  const before = pragma(db.$client, 'page_count')
  const options = { get: <T,>(key: string) => (key === 'LogRetentionDays' ? 30 : 0) as T }
  expect(await pruneLogs({ options, logs: repo }, now)).toBe(8000)
  expect(pragma(db.$client, 'freelist_count')).toBe(0)
  expect(pragma(db.$client, 'page_count')).toBeLessThan(before / 5)
  closeDatabase(db)

  // the next start has nothing to do
  const again = openDatabase(path)
  expect(migrate(again)).toEqual({ applied: [], vacuumed: false })
  closeDatabase(again)
})

test('a new file is created incremental: no VACUUM at migration', async () => {
  const db = openDatabase(join(dir, 'new.db'))
  expect(migrate(db).vacuumed).toBe(false)
  expect(pragma(db.$client, 'auto_vacuum')).toBe(2)
  const rows: NewLog[] = [{ type: LogType.consume, createdAt: 1 }]
  await createLogRepo(db).insertMany(rows)
  closeDatabase(db)
})
