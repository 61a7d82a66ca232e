import { and, eq, gt, isNull, lt, lte } from 'drizzle-orm'
import type { PgDb } from '../client'
import { authChallenges, backupCodes, passkeys, twoFactors } from '../schema'
import type { SecondFactorRepo } from '../../repos/second-factors'

type Tx = Parameters<Parameters<PgDb['transaction']>[0]>[0]

export function createSecondFactorRepo(db: PgDb): SecondFactorRepo {
  const replaceCodes = async (tx: Tx, userId: number, hashes: string[]) => {
    await tx.delete(backupCodes).where(eq(backupCodes.userId, userId))
    if (hashes.length) await tx.insert(backupCodes).values(hashes.map((codeHash) => ({ userId, codeHash })))
  }
  const challenge = (id: string, purpose: string, now: number) => and(eq(authChallenges.id, id), eq(authChallenges.purpose, purpose), gt(authChallenges.expiresAt, now))
  return {
    totp: async (userId) => (await db.select().from(twoFactors).where(eq(twoFactors.userId, userId)))[0],
    startTotp: async (userId, secret, hashes) =>
      db.transaction(async (tx) => {
        await tx.delete(twoFactors).where(eq(twoFactors.userId, userId))
        await tx.insert(twoFactors).values({ userId, secret })
        await replaceCodes(tx, userId, hashes)
      }),
    enableTotp: async (userId, step) =>
      (
        await db
          .update(twoFactors)
          .set({ enabled: true, lastStep: step })
          .where(and(eq(twoFactors.userId, userId), eq(twoFactors.enabled, false)))
          .returning({ userId: twoFactors.userId })
      ).length > 0,
    takeStep: async (userId, step) =>
      (
        await db
          .update(twoFactors)
          .set({ lastStep: step })
          .where(and(eq(twoFactors.userId, userId), lt(twoFactors.lastStep, step)))
          .returning({ userId: twoFactors.userId })
      ).length > 0,
    deleteTotp: async (userId) =>
      db.transaction(async (tx) => {
        await tx.delete(backupCodes).where(eq(backupCodes.userId, userId))
        return (await tx.delete(twoFactors).where(eq(twoFactors.userId, userId)).returning({ userId: twoFactors.userId })).length > 0
      }),
    unusedBackupCodes: async (userId) => db.select().from(backupCodes).where(and(eq(backupCodes.userId, userId), isNull(backupCodes.usedAt))),
    useBackupCode: async (id, at) =>
      (
        await db
          .update(backupCodes)
          .set({ usedAt: at })
          .where(and(eq(backupCodes.id, id), isNull(backupCodes.usedAt)))
          .returning({ id: backupCodes.id })
      ).length > 0,
    replaceBackupCodes: async (userId, hashes) => db.transaction((tx) => replaceCodes(tx, userId, hashes)),

    passkeys: async (userId) => db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(passkeys.id),
    passkeyByCredentialId: async (credentialId) => (await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)))[0],
    insertPasskey: async (row) => (await db.insert(passkeys).values(row).returning())[0]!,
    touchPasskey: async (id, counter, at) => void (await db.update(passkeys).set({ counter, lastUsedAt: at }).where(eq(passkeys.id, id))),
    deletePasskeys: async (userId, id) =>
      (
        await db
          .delete(passkeys)
          .where(id === undefined ? eq(passkeys.userId, userId) : and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
          .returning({ id: passkeys.id })
      ).length,

    putChallenge: async (row) => void (await db.insert(authChallenges).values(row)),
    peekChallenge: async (id, purpose, now) => (await db.select().from(authChallenges).where(challenge(id, purpose, now)))[0],
    takeChallenge: async (id, purpose, now) => (await db.delete(authChallenges).where(challenge(id, purpose, now)).returning())[0],
    deleteExpiredChallenges: async (now) => (await db.delete(authChallenges).where(lte(authChallenges.expiresAt, now)).returning({ id: authChallenges.id })).length,
  }
}
