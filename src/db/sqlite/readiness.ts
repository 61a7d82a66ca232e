import type { Database } from 'bun:sqlite'
import type { StorageCheck } from '../repos'
import { migrations } from './migrations'

/** Readiness on SQLite: the file answers a query, and its migration ledger has every embedded migration. */
export function sqliteCheck(sqlite: Database): StorageCheck {
  try {
    sqlite.query('SELECT 1').get()
  } catch (error) {
    return { database: (error as Error).message, pendingMigrations: [] }
  }
  return { database: 'ok', pendingMigrations: pendingMigrations(sqlite) }
}

function pendingMigrations(sqlite: Database): string[] {
  let done: Set<string>
  try {
    done = new Set(sqlite.query<{ tag: string }, []>('SELECT tag FROM __tollgate_migrations').all().map((row) => row.tag))
  } catch {
    return migrations.map((m) => m.tag)
  }
  return migrations.filter((m) => !done.has(m.tag)).map((m) => m.tag)
}
