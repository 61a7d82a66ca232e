import { and, eq, gt, lt, lte, sql } from 'drizzle-orm'
import type { Db } from '../client'
import { emailCodes } from '../schema'
import type { EmailCodeRepo } from '../../repos/email-codes'

export function createEmailCodeRepo(db: Db): EmailCodeRepo {
  return {
    issue: async (code, now) => {
      db.transaction((tx) => {
        tx.delete(emailCodes).where(lte(emailCodes.expiresAt, now)).run()
        tx.insert(emailCodes)
          .values({ ...code, attempts: 0 })
          .onConflictDoUpdate({ target: [emailCodes.purpose, emailCodes.email], set: { codeHash: code.codeHash, userId: code.userId, expiresAt: code.expiresAt, attempts: 0 } })
          .run()
      })
    },
    takeAttempt: async (purpose, email, now, maxAttempts) =>
      db
        .update(emailCodes)
        .set({ attempts: sql`${emailCodes.attempts} + 1` })
        .where(and(eq(emailCodes.purpose, purpose), eq(emailCodes.email, email), gt(emailCodes.expiresAt, now), lt(emailCodes.attempts, maxAttempts)))
        .returning()
        .get(),
    consume: async (id) => db.delete(emailCodes).where(eq(emailCodes.id, id)).returning({ id: emailCodes.id }).all().length > 0,
  }
}
