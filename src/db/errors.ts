/** The database was written by a newer Tollgate (a migration this binary does not know): start-up stops, whatever the dialect. */
export class NewerDatabaseError extends Error {}

/** Bun's PostgreSQL client codes for a connection that could not be made or was lost. */
const CONNECTION_CODES = /^ERR_POSTGRES_(CONNECTION_(REFUSED|CLOSED|TIMEOUT)|IDLE_TIMEOUT|LIFETIME_TIMEOUT|TLS_NOT_AVAILABLE)$/
/**
 * SQLSTATEs of a server that is unreachable, shutting down, full or too slow, not of a bad statement: class 08
 * (connection exception), 57P01–57P03 (shutdown, crash, cannot connect now), 53300 (too many connections),
 * 57014 (statement timeout).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300|57014)$/

/**
 * True when the database did not answer (PostgreSQL down, restarting, out of connections, a statement past its
 * timeout; SQLite busy past its timeout): the request gets a 503 to retry, not a 500. Nothing was decided, so
 * nothing was charged.
 */
export function isStorageUnavailable(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const { code, errno } = e as { code?: unknown; errno?: unknown }
    if (typeof code === 'string' && (CONNECTION_CODES.test(code) || code === 'SQLITE_BUSY')) return true
    if (typeof errno === 'string' && UNAVAILABLE_STATES.test(errno)) return true
    if (typeof code === 'string' && UNAVAILABLE_STATES.test(code)) return true
  }
  return false
}
