import { randomBytes } from 'node:crypto'
import type { SecondFactorRepo } from '../../db/repos/second-factors'
import { sha256 } from '../../crypto/sha256'

/**
 * Single-use server-side state with an expiry, in the database so every node sees it: the client holds a random
 * token, the row is keyed by its sha-256 (a database read gives no token away).
 */
export async function putChallenge(repo: SecondFactorRepo, input: { purpose: string; userId: number | null; payload: unknown; seconds: number; nowMs: number; token?: string }) {
  const token = input.token ?? randomBytes(32).toString('base64url')
  const now = Math.floor(input.nowMs / 1000)
  // expired rows go here, a few at a time of writing: no job needed, and a burst of begins cleans after itself
  await repo.deleteExpiredChallenges(now)
  await repo.putChallenge({ id: sha256(token), purpose: input.purpose, userId: input.userId, payload: JSON.stringify(input.payload), expiresAt: now + input.seconds })
  return token
}

export async function peekChallenge<T>(repo: SecondFactorRepo, token: string, purpose: string, nowMs: number) {
  const row = await repo.peekChallenge(sha256(token), purpose, Math.floor(nowMs / 1000))
  return row && { userId: row.userId, payload: JSON.parse(row.payload) as T }
}

export async function takeChallenge<T>(repo: SecondFactorRepo, token: string, purpose: string, nowMs: number) {
  const row = await repo.takeChallenge(sha256(token), purpose, Math.floor(nowMs / 1000))
  return row && { userId: row.userId, payload: JSON.parse(row.payload) as T }
}
