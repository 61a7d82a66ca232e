import type { Database } from 'bun:sqlite'

/** The settings every connection to the gateway's file gets: WAL, busy timeout, foreign keys, NORMAL sync. */
export function configureConnection(sqlite: Database): void {
  sqlite.exec('PRAGMA journal_mode = WAL')
  sqlite.exec('PRAGMA busy_timeout = 5000')
  sqlite.exec('PRAGMA foreign_keys = ON')
  sqlite.exec('PRAGMA synchronous = NORMAL')
}
