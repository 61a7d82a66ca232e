import type { SQL } from 'bun'
import { NewerDatabaseError } from '../errors'
import { migrations as embedded, type EmbeddedMigration } from './migrations'

const LEDGER = '__tollgate_migrations'

/**
 * The advisory lock every node takes around its migrations (any fixed int8: only Tollgate's own sessions ask
 * for it). Session-level, so it is held by one reserved connection and released by it or by its end.
 */
export const MIGRATION_LOCK = 7_461_017_001

/**
 * Apply the embedded PostgreSQL migrations in order, each in its own transaction, under
 * `pg_advisory_lock`: nodes starting together apply each migration once, the others wait and then find
 * nothing to do. The ledger is the SQLite one's (`__tollgate_migrations`); a row this binary does not know
 * means a newer Tollgate wrote the schema, and nothing is touched.
 */
export async function migratePostgres(sql: SQL, migrations: EmbeddedMigration[] = embedded): Promise<{ applied: string[] }> {
  const conn = await sql.reserve()
  try {
    await conn.unsafe(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`)
    try {
      return await applyPending(conn, migrations)
    } finally {
      await conn.unsafe(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`)
    }
  } finally {
    conn.release()
  }
}

async function applyPending(conn: SQL, migrations: EmbeddedMigration[]): Promise<{ applied: string[] }> {
  // under the lock: two nodes creating the ledger at once would race on the catalog
  await conn.unsafe(`CREATE TABLE IF NOT EXISTS ${LEDGER} (idx integer PRIMARY KEY, tag text NOT NULL, applied_at bigint NOT NULL)`)
  const done = (await conn.unsafe(`SELECT idx, tag FROM ${LEDGER} ORDER BY idx`)) as { idx: number; tag: string }[]
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
    await conn.begin(async (tx) => {
      for (const statement of migration.sql.split('--> statement-breakpoint')) {
        if (statement.trim()) await tx.unsafe(statement)
      }
      await tx`INSERT INTO __tollgate_migrations (idx, tag, applied_at) VALUES (${migration.index}, ${migration.tag}, extract(epoch from now())::bigint)`
    })
    applied.push(migration.tag)
  }
  return { applied }
}

/** The ledger's rows, or none when the database has never been migrated (for checks that must not create it). */
export async function appliedMigrations(sql: SQL): Promise<{ idx: number; tag: string }[]> {
  const [exists] = (await sql`SELECT to_regclass(${LEDGER}) IS NOT NULL AS present`) as { present: boolean }[]
  if (!exists?.present) return []
  return (await sql.unsafe(`SELECT idx, tag FROM ${LEDGER} ORDER BY idx`)) as { idx: number; tag: string }[]
}
