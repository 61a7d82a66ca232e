import { eq, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import type { PgDb } from '../client'

/** A transaction handle of the Drizzle database (what `db.transaction` hands its callback). */
export type PgTx = Parameters<Parameters<PgDb['transaction']>[0]>[0]
/** The database or a transaction on it. */
export type PgRunner = PgDb | PgTx

const INT4_MAX = 2_147_483_647

/** Whether `n` fits an int4 column: PostgreSQL refuses a larger parameter (SQLite's integers are int8), so such an id matches no row. */
export const isInt4 = (n: number): boolean => Number.isInteger(n) && n >= -INT4_MAX - 1 && n <= INT4_MAX

/** `column = value` on an int4 column, or false when the value cannot be stored there (never an error). */
export const eqInt = (column: AnyColumn, value: number): SQL => (isInt4(value) ? eq(column, value) : sql`false`)

/** The keyword as a row id when it is one (list searches match the id too), else -1, which no row has. */
export function keywordId(keyword: string): number {
  const n = Number(keyword)
  return n > 0 && isInt4(n) ? n : -1
}

/**
 * `column` contains `text`, case-insensitively: SQLite's LIKE ignores ASCII case, so ILIKE keeps results equal.
 * ESCAPE '' makes a backslash in the keyword an ordinary character, as in SQLite (PostgreSQL's default escape
 * would make a trailing one an error); `%` and `_` stay wildcards in both.
 */
export const contains = (column: AnyColumn | SQL, text: string): SQL => sql`${column} ILIKE ${`%${text}%`} ESCAPE ''`

/** The first row of a result, or undefined. */
export const first = <T>(rows: T[]): T | undefined => rows[0]

/**
 * After rows were inserted with ids given explicitly: move the table's identity sequence past `id` (never back),
 * as SQLite's AUTOINCREMENT does by itself, so the next generated id does not collide with them.
 */
export async function advanceIdentity(db: PgRunner, table: 'users' | 'tokens' | 'channels' | 'redemptions', id: number): Promise<void> {
  await db.execute(
    sql`SELECT setval(s, greatest(${id}::bigint, coalesce(pg_sequence_last_value(s::regclass), 0)), true) FROM pg_get_serial_sequence(${table}, 'id') AS s`,
  )
}

/** The largest explicit id among rows about to be inserted (undefined: none given). */
export function maxGivenId(rows: { id?: number | null }[]): number | undefined {
  let max: number | undefined
  for (const row of rows) if (row.id != null && (max === undefined || row.id > max)) max = row.id
  return max
}
