import { and, eq, gt, isNull, lt, lte } from 'drizzle-orm'
import type { Db } from '../client'
import { authChallenges, backupCodes, passkeys, twoFactors } from '../schema'
import type { SecondFactorRepo } from '../../repos/second-factors'

export function createSecondFactorRepo(db: Db): SecondFactorRepo {
  const replaceCodes = (userId: number, hashes: string[]) => {
    db.delete(backupCodes).where(eq(backupCodes.userId, userId)).run()
    if (hashes.length) db.insert(backupCodes).values(hashes.map((codeHash) => ({ userId, codeHash }))).run()
  }
  const challenge = (id: string, purpose: string, now: number) => and(eq(authChallenges.id, id), eq(authChallenges.purpose, purpose), gt(authChallenges.expiresAt, now))
  return {
    totp: async (userId) => db.select().from(twoFactors).where(eq(twoFactors.userId, userId)).get(),
    startTotp: async (userId, secret, hashes) =>
      db.transaction(() => {
        db.delete(twoFactors).where(eq(twoFactors.userId, userId)).run()
        db.insert(twoFactors).values({ userId, secret }).run()
        replaceCodes(userId, hashes)
      }),
    enableTotp: async (userId, step) =>
      db
        .update(twoFactors)
        .set({ enabled: true, lastStep: step })
        .where(and(eq(twoFactors.userId, userId), eq(twoFactors.enabled, false)))
        .returning({ userId: twoFactors.userId })
        .all().length > 0,
    takeStep: async (userId, step) =>
      db
        .update(twoFactors)
        .set({ lastStep: step })
        .where(and(eq(twoFactors.userId, userId), lt(twoFactors.lastStep, step)))
        .returning({ userId: twoFactors.userId })
        .all().length > 0,
    deleteTotp: async (userId) =>
      db.transaction(() => {
        db.delete(backupCodes).where(eq(backupCodes.userId, userId)).run()
        return db.delete(twoFactors).where(eq(twoFactors.userId, userId)).returning({ userId: twoFactors.userId }).all().length > 0
      }),
    unusedBackupCodes: async (userId) =>
      db
        .select()
        .from(backupCodes)
        .where(and(eq(backupCodes.userId, userId), isNull(backupCodes.usedAt)))
        .all(),
    useBackupCode: async (id, at) =>
      db
        .update(backupCodes)
        .set({ usedAt: at })
        .where(and(eq(backupCodes.id, id), isNull(backupCodes.usedAt)))
        .returning({ id: backupCodes.id })
        .all().length > 0,
    replaceBackupCodes: async (userId, hashes) => db.transaction(() => replaceCodes(userId, hashes)),

    passkeys: async (userId) => db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(passkeys.id).all(),
    passkeyByCredentialId: async (credentialId) => db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).get(),
    insertPasskey: async (row) => db.insert(passkeys).values(row).returning().get(),
    touchPasskey: async (id, counter, at) => void db.update(passkeys).set({ counter, lastUsedAt: at }).where(eq(passkeys.id, id)).run(),
    deletePasskeys: async (userId, id) =>
      db
        .delete(passkeys)
        .where(id === undefined ? eq(passkeys.userId, userId) : and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
        .returning({ id: passkeys.id })
        .all().length,

    putChallenge: async (row) => void db.insert(authChallenges).values(row).run(),
    peekChallenge: async (id, purpose, now) => db.select().from(authChallenges).where(challenge(id, purpose, now)).get(),
    takeChallenge: async (id, purpose, now) => db.delete(authChallenges).where(challenge(id, purpose, now)).returning().get(),
    deleteExpiredChallenges: async (now) => db.delete(authChallenges).where(lte(authChallenges.expiresAt, now)).returning({ id: authChallenges.id }).all().length,
  }
}
