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
