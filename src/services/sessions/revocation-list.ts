import type { RevokedSessionRepo } from '../../db/repos'
import { nowSeconds } from '../tokens/token-status'

/** How often, at most, a logout also deletes the revocations whose JWT has expired since. */
export const PRUNE_INTERVAL_SECONDS = 3600

/**
 * Sessions ended by logout, in memory for the auth check (no query per request) and in the database so
 * they outlive a restart. Loaded once here; revocations past their JWT's expiry are pruned now and then.
 */
export async function loadRevocationList(repo: RevokedSessionRepo, clock: () => number = nowSeconds) {
  const expiryById = new Map<string, number>()
  let prunedAt = 0

  async function pruneExpired(): Promise<void> {
    const now = clock()
    prunedAt = now
    await repo.deleteExpired(now)
    for (const [id, expiresAt] of expiryById) if (expiresAt <= now) expiryById.delete(id)
  }

  await pruneExpired()
  for (const row of await repo.unexpired(clock())) expiryById.set(row.id, row.expiresAt)

  return {
    isRevoked: (sessionId: string): boolean => expiryById.has(sessionId),
    /** Persist first, so a revocation the caller was told about survives a restart. */
    async revoke(sessionId: string, expiresAt: number): Promise<void> {
      await repo.insert(sessionId, expiresAt)
      expiryById.set(sessionId, expiresAt)
      if (clock() - prunedAt >= PRUNE_INTERVAL_SECONDS) await pruneExpired()
    },
    get size(): number {
      return expiryById.size
    },
  }
}

export type RevocationList = Awaited<ReturnType<typeof loadRevocationList>>
