import type { RevokedSessionRepo } from '../../db/repos'
import { nowSeconds } from '../tokens/token-status'

/** How often the pruning job deletes the revocations whose JWT has expired (and a logout forgets them in memory). */
export const PRUNE_INTERVAL_SECONDS = 3600

/**
 * Sessions ended by logout, in memory for the auth check (no query per request) and in the database so they
 * outlive a restart and reach every node. Loaded once here; a logout on another node arrives through `remember`
 * (src/cluster). The rows past their JWT's expiry are deleted by `pruneExpired`, a job one node runs at a time;
 * each node drops them from memory itself, at most hourly, on a logout.
 */
export async function loadRevocationList(repo: RevokedSessionRepo, clock: () => number = nowSeconds) {
  const expiryById = new Map<string, number>()
  let forgottenAt = clock()

  function forgetExpired(now: number): void {
    forgottenAt = now
    for (const [id, expiresAt] of expiryById) if (expiresAt <= now) expiryById.delete(id)
  }

  async function load(): Promise<void> {
    for (const row of await repo.unexpired(clock())) expiryById.set(row.id, row.expiresAt)
  }

  await load()

  return {
    isRevoked: (sessionId: string): boolean => expiryById.has(sessionId),
    /** Persist first, so a revocation the caller was told about survives a restart (and reaches the other nodes). */
    async revoke(sessionId: string, expiresAt: number): Promise<void> {
      await repo.insert(sessionId, expiresAt)
      expiryById.set(sessionId, expiresAt)
      const now = clock()
      if (now - forgottenAt >= PRUNE_INTERVAL_SECONDS) forgetExpired(now)
    },
    /** A revocation another node stored. */
    remember(sessionId: string, expiresAt: number): void {
      if (expiresAt > clock()) expiryById.set(sessionId, expiresAt)
    },
    /** Read the stored revocations again (another node's may have been missed). */
    reload: load,
    /** Delete the stored revocations whose JWT has expired, and forget them here; answers how many rows went. */
    async pruneExpired(): Promise<number> {
      const now = clock()
      const deleted = await repo.deleteExpired(now)
      forgetExpired(now)
      return deleted
    },
    get size(): number {
      return expiryById.size
    },
  }
}

export type RevocationList = Awaited<ReturnType<typeof loadRevocationList>>
