import type { Database } from 'bun:sqlite'
import type { Db } from './client'
import { migrations as embedded, type EmbeddedMigration } from './migrations'

export class NewerDatabaseError extends Error {}

const LEDGER = '__tollgate_migrations'

/**
 * Apply embedded migrations in order, each in its own transaction. Re-running is a no-op; a database
 * written by a newer Tollgate (a migration we do not know) is refused before anything is touched.
 */
export function migrate(db: Db, migrations: EmbeddedMigration[] = embedded): { applied: string[] } {
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
  return { applied }
}
