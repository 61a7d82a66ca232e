import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import type { EmailCodeRepo, EmailCodeRow } from '../db/repos'

export type CodePurpose = 'register' | 'reset' | 'email_change'

/** What the code functions need: the table and the key its hashes are made with. */
export interface CodeStore {
  repo: EmailCodeRepo
  cryptoSecret: string
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

/** The stored form of a code: an HMAC keyed by the crypto secret (a stolen table gives no code, even a 6-digit one). */
function codeHash(secret: string, purpose: CodePurpose, email: string, code: string): string {
  return createHmac('sha256', secret).update(`email-code\n${purpose}\n${email}\n${code}`).digest('hex')
}

/** Six digits, uniformly random. */
export const newVerificationCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0')

/** A reset link's token: 256 random bits. */
export const newResetToken = (): string => randomBytes(32).toString('base64url')

/** Store `code` for the address (the previous one for the same purpose stops working). */
export async function issueCode(store: CodeStore, input: { purpose: CodePurpose; email: string; code: string; userId?: number; validMinutes: number }): Promise<void> {
  const now = nowSeconds()
  const codeHashValue = codeHash(store.cryptoSecret, input.purpose, input.email, input.code)
  await store.repo.issue({ purpose: input.purpose, email: input.email, codeHash: codeHashValue, userId: input.userId ?? 0, expiresAt: now + input.validMinutes * 60 }, now)
}

/**
 * Check a code: one attempt counted first (so parallel guesses stay within `maxAttempts`), then compared in constant
 * time; a right code is used up (deleted) and its row returned. Wrong, expired, used and exhausted all give undefined.
 */
export async function useCode(store: CodeStore, input: { purpose: CodePurpose; email: string; code: string; maxAttempts: number }): Promise<EmailCodeRow | undefined> {
  const row = await store.repo.takeAttempt(input.purpose, input.email, nowSeconds(), input.maxAttempts)
  if (!row) return undefined
  const given = Buffer.from(codeHash(store.cryptoSecret, input.purpose, input.email, input.code), 'hex')
  if (!timingSafeEqual(given, Buffer.from(row.codeHash, 'hex'))) return undefined
  return (await store.repo.consume(row.id)) ? row : undefined
}
