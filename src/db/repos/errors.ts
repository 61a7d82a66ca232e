/**
 * True when the database refused a write because a UNIQUE column already holds the value: SQLite's
 * `UNIQUE constraint failed` (SQLITE_CONSTRAINT_UNIQUE), PostgreSQL's unique_violation (SQLSTATE 23505).
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: string; errno?: string }).code
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505' || (e as { errno?: string }).errno === '23505') return true
    if (/UNIQUE constraint failed|duplicate key value violates unique constraint/i.test(e.message)) return true
  }
  return false
}

/**
 * True when PostgreSQL refused a text value it cannot store: a NUL character (SQLSTATE 22021, "invalid byte
 * sequence"; 22P05 for an untranslatable one). SQLite stores such text, so on PostgreSQL this is the client's
 * input (a JSON string may hold \u0000), a 400, not the gateway's fault.
 */
export function isUnstorableText(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { errno?: string }).errno ?? (e as { code?: string }).code
    if (code === '22021' || code === '22P05') return true
  }
  return false
}
