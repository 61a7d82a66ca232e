import { and, eq, gt, lt, lte, sql } from 'drizzle-orm'
import type { PgDb } from '../client'
import { emailCodes } from '../schema'
import type { EmailCodeRepo } from '../../repos/email-codes'

export function createEmailCodeRepo(db: PgDb): EmailCodeRepo {
  return {
    issue: async (code, now) => {
      await db.transaction(async (tx) => {
        await tx.delete(emailCodes).where(lte(emailCodes.expiresAt, now))
        await tx
          .insert(emailCodes)
          .values({ ...code, attempts: 0 })
          .onConflictDoUpdate({ target: [emailCodes.purpose, emailCodes.email], set: { codeHash: code.codeHash, userId: code.userId, expiresAt: code.expiresAt, attempts: 0 } })
      })
    },
    takeAttempt: async (purpose, email, now, maxAttempts) =>
      (
        await db
          .update(emailCodes)
          .set({ attempts: sql`${emailCodes.attempts} + 1` })
          .where(and(eq(emailCodes.purpose, purpose), eq(emailCodes.email, email), gt(emailCodes.expiresAt, now), lt(emailCodes.attempts, maxAttempts)))
          .returning()
      )[0],
    consume: async (id) => (await db.delete(emailCodes).where(eq(emailCodes.id, id)).returning({ id: emailCodes.id })).length > 0,
  }
}
