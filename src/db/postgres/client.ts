import { SQL } from 'bun'
import { drizzle, type BunSQLDatabase } from 'drizzle-orm/bun-sql'
import * as schema from './schema'

export type PgDb = BunSQLDatabase<typeof schema> & { $client: SQL }

export interface PostgresOptions {
  /** connections in the pool (Bun's default is 10) */
  poolSize?: number
  /** the server cancels a statement that runs longer (ms; 0 = never) */
  statementTimeoutMs?: number
  /** shown in pg_stat_activity, so a DBA sees which connections are Tollgate's */
  applicationName?: string
}

const POSTGRES_DEFAULTS = { poolSize: 10, statementTimeoutMs: 30_000, applicationName: 'tollgate' } as const

/**
 * A pool on the PostgreSQL database of `url` (postgres:// or postgresql://, TLS by `?sslmode=`), through Bun's
 * built-in client, and its Drizzle handle. Connections open lazily, on the first query. The statement
 * timeout and application name are sent in each connection's start-up packet, so every pooled connection
 * has them without an extra round trip.
 */
export function openPostgres(url: string, options: PostgresOptions = {}): PgDb {
  const settings = { ...POSTGRES_DEFAULTS, ...options }
  const client = new SQL({
    url,
    adapter: 'postgres',
    // Bun lets PGDATABASE win over the URL's database; the URL the operator wrote must name the database
    database: databaseOf(url),
    max: settings.poolSize,
    // a pooled connection idle this long is closed (the server or a proxy in between may drop it anyway)
    idleTimeout: 60,
    connectionTimeout: 10,
    connection: { application_name: settings.applicationName, statement_timeout: settings.statementTimeoutMs },
  })
  return drizzle({ client, schema }) as PgDb
}

export async function closePostgres(db: PgDb): Promise<void> {
  await db.$client.close()
}

/** The database a postgres:// URL names (undefined: the server's default, the user's name). */
export function databaseOf(url: string): string | undefined {
  const path = new URL(url).pathname.replace(/^\//, '')
  return path ? decodeURIComponent(path) : undefined
}
