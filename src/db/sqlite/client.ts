import { Database } from 'bun:sqlite'
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import * as schema from './schema'
import { configureConnection } from './settings'

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database }

/** Open the SQLite file with the settings a single-process gateway wants: WAL, busy timeout, foreign keys. */
export function openDatabase(path: string): Db {
  // a new data dir is private to the service's user (it holds the secrets and every hash)
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    // SQLite creates a new file 0644 less the umask, and its -wal/-shm take the file's mode: born 0600 instead
    if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600))
  }
  const sqlite = new Database(path, { create: true, strict: true })
  // Takes effect on a new file (before the first table): log retention can then hand freed pages back.
  sqlite.exec('PRAGMA auto_vacuum = INCREMENTAL')
  configureConnection(sqlite)
  return drizzle({ client: sqlite, schema }) as Db
}

export function closeDatabase(db: Db): void {
  db.$client.close()
}
