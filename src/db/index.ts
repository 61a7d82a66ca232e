import type { Config } from '../config'
import type { Repos } from './repos'
import { openDatabase } from './sqlite/client'
import { migrate } from './sqlite/migrate'
import { createSqliteRepos } from './sqlite/repos'

export class UnsupportedDialectError extends Error {}

/**
 * The repositories of the configured database, migrated as a start does (a newer schema throws
 * NewerDatabaseError before anything is touched). SQLite is the only dialect served so far; a PostgreSQL
 * DATABASE_URL is refused (`serve` says so before it gets here) until src/db/postgres/ has its repositories.
 */
export async function openRepos(config: Pick<Config, 'database' | 'writerThread'>): Promise<Repos> {
  const { database } = config
  if (database.kind !== 'sqlite') throw new UnsupportedDialectError('PostgreSQL storage is not served yet: the repositories run on SQLite only')
  const db = openDatabase(database.path)
  try {
    migrate(db)
  } catch (error) {
    db.$client.close()
    throw error
  }
  return createSqliteRepos(db, { writerThread: config.writerThread, ownsDatabase: true })
}

export type { Dialect, Repos, StorageCheck } from './repos'
