import { gt, lte } from 'drizzle-orm'
import type { Db } from '../client'
import { revokedSessions } from '../schema'
import type { RevokedSessionRepo } from '../../repos/revoked-sessions'

export function createRevokedSessionRepo(db: Db): RevokedSessionRepo {
  return {
    unexpired: async (now) => db.select().from(revokedSessions).where(gt(revokedSessions.expiresAt, now)).all(),
    insert: async (id, expiresAt) => void db.insert(revokedSessions).values({ id, expiresAt }).onConflictDoNothing().run(),
    deleteExpired: async (now) => db.delete(revokedSessions).where(lte(revokedSessions.expiresAt, now)).returning({ id: revokedSessions.id }).all().length,
  }
}
