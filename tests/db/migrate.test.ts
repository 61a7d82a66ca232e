import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { renderMigrationIndex } from '../../scripts/embed-migrations'
import { closeDatabase, openDatabase, type Db } from '../../src/db/sqlite/client'
import { migrate, NewerDatabaseError } from '../../src/db/sqlite/migrate'
import { migrations } from '../../src/db/sqlite/migrations'

const dirs: string[] = []
const dbs: Db[] = []
afterEach(() => {
  for (const db of dbs.splice(0)) closeDatabase(db)
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDb(): { db: Db; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-migrate-'))
  dirs.push(dir)
  const path = join(dir, 'sub', 'tollgate.db')
  const db = openDatabase(path)
  dbs.push(db)
  return { db, path }
}

test('migrations create every table and the SQLite settings are on', () => {
  const { db } = tempDb()
  expect(migrate(db).applied).toEqual(migrations.map((m) => m.tag))
  const tables = db.$client.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").all().map((r) => r.name)
  for (const name of ['users', 'tokens', 'options', 'logs', 'channels', 'abilities']) expect(tables).toContain(name)
  expect(db.$client.query<{ journal_mode: string }, []>('PRAGMA journal_mode').get()!.journal_mode).toBe('wal')
  expect(db.$client.query<{ foreign_keys: number }, []>('PRAGMA foreign_keys').get()!.foreign_keys).toBe(1)
  expect(db.$client.query<{ timeout: number }, []>('PRAGMA busy_timeout').get()!.timeout).toBe(5000)
})

test('re-running migrations is a no-op and keeps data', () => {
  const { db, path } = tempDb()
  migrate(db)
  db.$client.exec("INSERT INTO options (key, value) VALUES ('SystemName', 'kept')")
  closeDatabase(dbs.pop()!)
  const again = openDatabase(path)
  dbs.push(again)
  expect(migrate(again).applied).toEqual([])
  expect(again.$client.query<{ value: string }, []>("SELECT value FROM options WHERE key='SystemName'").get()!.value).toBe('kept')
})

test('a database from a newer version is refused without being touched', () => {
  const { db } = tempDb()
  migrate(db)
  db.$client.exec("INSERT INTO __tollgate_migrations (idx, tag, applied_at) VALUES (999, '0999_future', 0)")
  const before = db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM __tollgate_migrations').get()!.n
  expect(() => migrate(db)).toThrow(NewerDatabaseError)
  expect(() => migrate(db)).toThrow(/newer Tollgate/)
  expect(db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM __tollgate_migrations').get()!.n).toBe(before)
})

test('a failing migration rolls back completely', () => {
  const { db } = tempDb()
  const broken = [{ index: 0, tag: '0000_broken', sql: 'CREATE TABLE a (x INTEGER);\n--> statement-breakpoint\nCREATE TABLE oops (' }]
  expect(() => migrate(db, broken)).toThrow()
  const tables = db.$client.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type='table' AND name='a'").all()
  expect(tables).toEqual([])
})

test('the embedded migration index matches drizzle-kit output', async () => {
  const current = await Bun.file(join(import.meta.dir, '../../src/db/sqlite/migrations/index.ts')).text()
  expect(current).toBe(renderMigrationIndex())
})
