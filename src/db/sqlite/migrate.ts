import type { Database } from 'bun:sqlite'
import type { Db } from './client'
import { NewerDatabaseError } from '../errors'
import { migrations as embedded, type EmbeddedMigration } from './migrations'

export { NewerDatabaseError }

const LEDGER = '__tollgate_migrations'

/**
 * Apply embedded migrations in order, each in its own transaction. Re-running is a no-op; a database
 * written by a newer Tollgate (a migration we do not know) is refused before anything is touched.
 */
export function migrate(db: Db, migrations: EmbeddedMigration[] = embedded): { applied: string[]; vacuumed: boolean } {
  const sqlite: Database = db.$client
  sqlite.exec(`CREATE TABLE IF NOT EXISTS ${LEDGER} (idx INTEGER PRIMARY KEY, tag TEXT NOT NULL, applied_at INTEGER NOT NULL)`)
  const done = sqlite.query<{ idx: number; tag: string }, []>(`SELECT idx, tag FROM ${LEDGER} ORDER BY idx`).all()
  const known = new Map(migrations.map((m) => [m.index, m.tag]))
  const unknown = done.filter((row) => known.get(row.idx) !== row.tag)
  if (unknown.length > 0) {
    throw new NewerDatabaseError(
      `the database was written by a newer Tollgate (migration ${unknown[0]!.tag} is unknown to this version); ` +
        'upgrade Tollgate or restore a backup',
    )
  }
  const applied: string[] = []
  const doneSet = new Set(done.map((row) => row.idx))
  for (const migration of migrations) {
    if (doneSet.has(migration.index)) continue
    sqlite.transaction(() => {
      for (const statement of migration.sql.split('--> statement-breakpoint')) {
        if (statement.trim()) sqlite.exec(statement)
      }
      sqlite.query(`INSERT INTO ${LEDGER} (idx, tag, applied_at) VALUES (?, ?, unixepoch())`).run(migration.index, migration.tag)
    })()
    applied.push(migration.tag)
  }
  return { applied, vacuumed: ensureIncrementalVacuum(sqlite) }
}

/**
 * Log retention hands freed pages back to the file system with `PRAGMA incremental_vacuum`, which needs
 * `auto_vacuum = INCREMENTAL`. `openDatabase` sets it, but SQLite only honours that before the first table:
 * a file created by an older Tollgate keeps `NONE` (retention still deletes, and new rows reuse the freed
 * pages, but the file never shrinks). Such a file is converted once here, at start, by `VACUUM`: it rewrites
 * the file (takes about as long as copying it, and as much free disk again) and is atomic, so a failure, e.g.
 * a full disk, leaves the file as it was; then the server starts anyway and tries again next start.
 */
function ensureIncrementalVacuum(sqlite: Database): boolean {
  const mode = (sqlite.query('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum
  if (mode === 2) return false
  const started = performance.now()
  console.log('database: converting to incremental auto-vacuum so log retention can shrink the file (once; rewrites the file)')
  try {
    sqlite.exec('PRAGMA auto_vacuum = INCREMENTAL')
    sqlite.exec('VACUUM')
    sqlite.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  } catch (error) {
    console.error(`database: the conversion failed (${(error as Error).message}); retention will delete old logs but the file will not shrink`)
    return false
  }
  console.log(`database: converted in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return true
}
