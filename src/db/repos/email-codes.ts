/** A code or link sent by mail, as stored (src/db/sqlite/schema/email-codes.ts). */
export interface EmailCodeRow {
  id: number
  purpose: string
  email: string
  codeHash: string
  userId: number
  attempts: number
  expiresAt: number
}

type NewEmailCode = Pick<EmailCodeRow, 'purpose' | 'email' | 'codeHash' | 'userId' | 'expiresAt'>

/**
 * Mailed codes (registration) and reset links: one live row per purpose and address. A check takes an attempt
 * first, in one statement, so parallel guesses cannot pass `maxAttempts`; a right one deletes the row (used once).
 */
export interface EmailCodeRepo {
  /** Store a new code for its purpose and address, replacing the one before (its attempts start over); expired rows of any address go. */
  issue(code: NewEmailCode, now: number): Promise<void>
  /** Count one attempt at the live code (unexpired at `now`, under `maxAttempts` so far): the row after the count, or undefined. */
  takeAttempt(purpose: string, email: string, now: number, maxAttempts: number): Promise<EmailCodeRow | undefined>
  /** Delete the row: true when this call did (a second use of the same code finds nothing). */
  consume(id: number): Promise<boolean>
}
