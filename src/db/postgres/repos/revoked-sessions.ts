import { gt, lte } from 'drizzle-orm'
import type { PgDb } from '../client'
import { revokedSessions } from '../schema'
import type { RevokedSessionRepo } from '../../repos/revoked-sessions'

export function createRevokedSessionRepo(db: PgDb): RevokedSessionRepo {
  return {
    unexpired: async (now) => db.select().from(revokedSessions).where(gt(revokedSessions.expiresAt, now)),
    insert: async (id, expiresAt) => void (await db.insert(revokedSessions).values({ id, expiresAt }).onConflictDoNothing()),
    deleteExpired: async (now) => (await db.delete(revokedSessions).where(lte(revokedSessions.expiresAt, now)).returning({ id: revokedSessions.id })).length,
  }
}
