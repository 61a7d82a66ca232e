import type { RevokedSessionRepo } from '../../db/sqlite/repos/revoked-sessions'
import { nowSeconds } from '../tokens/token-status'

/** How often, at most, a logout also deletes the revocations whose JWT has expired since. */
export const PRUNE_INTERVAL_SECONDS = 3600

/**
 * Sessions ended by logout, in memory for the auth check (no query per request) and in the database so
 * they outlive a restart. Loaded once here; revocations past their JWT's expiry are pruned now and then.
 */
export function createRevocationList(repo: RevokedSessionRepo, clock: () => number = nowSeconds) {
  const expiryById = new Map<string, number>()
  let prunedAt = 0

  function pruneExpired(): void {
    const now = clock()
    repo.deleteExpired(now)
    for (const [id, expiresAt] of expiryById) if (expiresAt <= now) expiryById.delete(id)
    prunedAt = now
  }

  pruneExpired()
  for (const row of repo.unexpired(clock())) expiryById.set(row.id, row.expiresAt)

  return {
    isRevoked: (sessionId: string): boolean => expiryById.has(sessionId),
    /** Persist first, so a revocation the caller was told about survives a restart. */
    revoke(sessionId: string, expiresAt: number): void {
      repo.insert(sessionId, expiresAt)
      expiryById.set(sessionId, expiresAt)
      if (clock() - prunedAt >= PRUNE_INTERVAL_SECONDS) pruneExpired()
    },
    get size(): number {
      return expiryById.size
    },
  }
}

export type RevocationList = ReturnType<typeof createRevocationList>
