import { Database } from 'bun:sqlite'
import { SQL } from 'bun'
import { existsSync } from 'node:fs'
import type { NetworkConnection, SourceSpec } from './source-dsn'

/** One row as the source driver returns it: column name → value (numbers may come as strings or bigints). */
export type SourceRow = Record<string, unknown>

/**
 * Read access to a new-api / one-api database, whatever engine holds it. Only SELECTs are issued (SQLite is
 * opened read-only). Table and column names are quoted for the engine: `group` and `key` are reserved words.
 */
export interface Source {
  readonly kind: SourceSpec['kind']
  readonly display: string
  tables(): Promise<string[]>
  columns(table: string): Promise<string[]>
  count(table: string): Promise<number>
  /** Every row, ordered by `order` (a column) when given. */
  all(table: string, order?: string): Promise<SourceRow[]>
  /** Rows with `id` above `afterId` (and `column >= since` when given), ordered by id, at most `limit`. */
  page(table: string, options: { afterId: number; limit: number; since?: { column: string; value: number } }): Promise<SourceRow[]>
  close(): Promise<void>
}

class SourceError extends Error {}

export async function openSource(spec: SourceSpec): Promise<Source> {
  if (spec.kind === 'sqlite') return openSqlite(spec.path, spec.display)
  return openNetwork(spec.kind, spec.connection, spec.display)
}

function openSqlite(path: string, display: string): Source {
  if (!existsSync(path)) throw new SourceError(`--from: no such SQLite file: ${display}`)
  let db: Database
  try {
    db = new Database(path, { readonly: true })
    db.query('SELECT count(*) FROM sqlite_master').get()
  } catch (error) {
    throw new SourceError(`--from: cannot open ${display} as SQLite: ${(error as Error).message}`)
  }
  const q = (name: string) => `"${name.replaceAll('"', '""')}"`
  return {
    kind: 'sqlite',
    display,
    tables: async () =>
      db
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all()
        .map((r) => r.name),
    columns: async (table) => db.query<{ name: string }, []>(`PRAGMA table_info(${q(table)})`).all().map((r) => r.name),
    count: async (table) => db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${q(table)}`).get()!.n,
    all: async (table, order) => db.query<SourceRow, []>(`SELECT * FROM ${q(table)}${order ? ` ORDER BY ${q(order)}` : ''}`).all(),
    page: async (table, { afterId, limit, since }) => {
      const where = since ? ` AND ${q(since.column)} >= ?` : ''
      const params = since ? [afterId, since.value, limit] : [afterId, limit]
      return db.query<SourceRow, (string | number)[]>(`SELECT * FROM ${q(table)} WHERE ${q('id')} > ?${where} ORDER BY ${q('id')} LIMIT ?`).all(...params)
    },
    close: async () => db.close(),
  }
}

async function openNetwork(kind: 'postgres' | 'mysql', c: NetworkConnection, display: string): Promise<Source> {
  // every field given explicitly: Bun would otherwise fill gaps from DATABASE_URL / PG* / MYSQL_* of this process
  const sql = new SQL({
    adapter: kind,
    hostname: c.hostname,
    port: c.port,
    path: c.path,
    username: c.username,
    password: c.password,
    database: c.database,
    tls: c.tls === 'disable' ? false : c.tls,
    max: 2,
    connectionTimeout: 15,
  })
  const q = kind === 'postgres' ? (name: string) => `"${name.replaceAll('"', '""')}"` : (name: string) => `\`${name.replaceAll('`', '``')}\``
  const p = kind === 'postgres' ? (i: number) => `$${i}` : () => '?'
  const run = async (text: string, params: unknown[] = []): Promise<SourceRow[]> => {
    try {
      return [...((await sql.unsafe(text, params)) as SourceRow[])]
    } catch (error) {
      throw new SourceError(`reading ${display}: ${(error as Error).message}`)
    }
  }
  try {
    await run('SELECT 1 AS ok')
  } catch (error) {
    await sql.close({ timeout: 0 }).catch(() => {})
    throw new SourceError(`--from: cannot connect to ${display}: ${(error as Error).message.replace(/^reading [^:]+: /, '')}`)
  }
  const schemaFilter = kind === 'postgres' ? 'table_schema = current_schema()' : 'table_schema = DATABASE()'
  return {
    kind,
    display,
    tables: async () =>
      (await run(`SELECT table_name AS name FROM information_schema.tables WHERE ${schemaFilter} AND table_type = 'BASE TABLE' ORDER BY table_name`)).map((r) =>
        String(r.name),
      ),
    columns: async (table) =>
      (await run(`SELECT column_name AS name FROM information_schema.columns WHERE ${schemaFilter} AND table_name = ${p(1)} ORDER BY ordinal_position`, [table])).map((r) =>
        String(r.name),
      ),
    count: async (table) => Number((await run(`SELECT count(*) AS n FROM ${q(table)}`))[0]?.n ?? 0),
    all: (table, order) => run(`SELECT * FROM ${q(table)}${order ? ` ORDER BY ${q(order)}` : ''}`),
    page: (table, { afterId, limit, since }) =>
      since
        ? run(`SELECT * FROM ${q(table)} WHERE ${q('id')} > ${p(1)} AND ${q(since.column)} >= ${p(2)} ORDER BY ${q('id')} LIMIT ${limit}`, [afterId, since.value])
        : run(`SELECT * FROM ${q(table)} WHERE ${q('id')} > ${p(1)} ORDER BY ${q('id')} LIMIT ${limit}`, [afterId]),
    close: () => sql.close({ timeout: 5 }),
  }
}
