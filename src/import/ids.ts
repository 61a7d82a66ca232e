// Source ids, and which of them a row keeps in the target.
import type { RowRules } from './api-rules'
import { exactInt } from './api-rules'

/**
 * The largest source id kept as it is. Far below PostgreSQL's `integer` ids (2^31−1) and JavaScript's exact
 * integers (2^53−1): the rows created after an import (autoincrement from the largest id) have room for
 * a billion more. A source row with an id above it, or below 1, gets a new id and its references follow.
 */
export const MAX_KEPT_ID = 1_000_000_000

/** An id the target can keep as it is. */
export const keepsId = (id: number): boolean => Number.isSafeInteger(id) && id >= 1 && id <= MAX_KEPT_ID

/**
 * An id that is not an exact integer (beyond ±(2^53−1), as a PostgreSQL bigint may hold) cannot be told apart
 * from its neighbours once read, so nothing could point at the right row: the row is refused.
 */
export function checkSourceId(rules: RowRules, raw: unknown): void {
  if (exactInt(raw) === undefined) rules.refuse('id', 'not a whole number within 2^53−1: references to it cannot be told apart', String(raw))
}

/** The note of a row given a new id. */
export function remapNote(table: string): string {
  const follows: Record<string, string> = {
    users: 'their tokens, codes, invitations and logs follow',
    tokens: 'its logs follow',
    channels: 'its logs follow',
    redemptions: 'nothing refers to it',
  }
  return `an id outside 1–${MAX_KEPT_ID} leaves no room for the rows created after it (and beyond 2^53−1 JavaScript cannot tell ids apart): given a new id, ${follows[table] ?? 'its references follow'}`
}
