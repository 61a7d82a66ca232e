import type { Config } from '../config'
import type { PostgresRepoOptions } from './postgres/repos'
import type { Repos } from './repos'
import { openDatabase } from './sqlite/client'
import { migrate } from './sqlite/migrate'
import { createSqliteRepos } from './sqlite/repos'

/** What only PostgreSQL takes: this node's id in its quota holds (default: a random one per process) and the holds' lease. */
export type PostgresExtras = Partial<Pick<PostgresRepoOptions, 'nodeId' | 'lease'>>

/**
 * The repositories of the configured database, migrated as a start does (a newer schema throws
 * NewerDatabaseError before anything is touched): SQLite under DATA_DIR, or the PostgreSQL database of a
 * postgres:// DATABASE_URL (a pool, migrations under the advisory lock, this process as a node with a random id).
 */
export async function openRepos(config: Pick<Config, 'database' | 'writerThread'>, extras: PostgresExtras = {}): Promise<Repos> {
  const { database } = config
  if (database.kind === 'postgres') {
    // loaded only here: a gateway on SQLite never evaluates PostgreSQL's schema, migrations and driver code
    const [{ closePostgres, openPostgres }, { migratePostgres }, { createPostgresRepos }, { leaseOf }] = await Promise.all([
      import('./postgres/client'),
      import('./postgres/migrate'),
      import('./postgres/repos'),
      import('./postgres/repos/quota'),
    ])
    const db = openPostgres(database.url, { poolSize: database.poolSize, statementTimeoutMs: database.statementTimeoutMs })
    try {
      await migratePostgres(db.$client)
    } catch (error) {
      await closePostgres(db)
      throw error
    }
    return createPostgresRepos(db, { nodeId: extras.nodeId ?? `node-${crypto.randomUUID()}`, lease: extras.lease ?? leaseOf(database.holdTtlSeconds), ownsDatabase: true })
  }
  const db = openDatabase(database.path)
  try {
    migrate(db)
  } catch (error) {
    db.$client.close()
    throw error
  }
  return createSqliteRepos(db, { writerThread: config.writerThread, ownsDatabase: true })
}

export type { Repos } from './repos'
