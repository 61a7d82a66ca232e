import { gt, lte } from 'drizzle-orm'
import type { Db } from '../client'
import { revokedSessions } from '../schema'

export type RevokedSessionRow = typeof revokedSessions.$inferSelect

/** Session ids revoked by logout, each with the expiry of its JWT (unix seconds). */
export function createRevokedSessionRepo(db: Db) {
  return {
    /** The revocations whose JWT is still unexpired at `now`. */
    unexpired: (now: number): RevokedSessionRow[] => db.select().from(revokedSessions).where(gt(revokedSessions.expiresAt, now)).all(),
    /** Record a revocation; revoking the same id twice is a no-op. */
    insert: (id: string, expiresAt: number) => void db.insert(revokedSessions).values({ id, expiresAt }).onConflictDoNothing().run(),
    /** Delete the revocations whose JWT has expired by `now`; answers how many went. */
    deleteExpired: (now: number): number =>
      db.delete(revokedSessions).where(lte(revokedSessions.expiresAt, now)).returning({ id: revokedSessions.id }).all().length,
  }
}

export type RevokedSessionRepo = ReturnType<typeof createRevokedSessionRepo>
