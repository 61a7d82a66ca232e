import { createHmac, randomInt } from 'node:crypto'

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789' // no 0/O, 1/I: read off paper without doubt
const COUNT = 10
const HALF = 5

/** Ten codes like `K7QX2-M9RTA` (50 bits each), shown once. */
export function newBackupCodes(): string[] {
  const half = () => Array.from({ length: HALF }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')
  return Array.from({ length: COUNT }, () => `${half()}-${half()}`)
}

/** Upper case, separators and spaces dropped: `k7qx2 m9rta` is the same code. */
function normalizeBackupCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, '')
}

/**
 * A keyed hash (HMAC-SHA-256 under a key derived from the crypto secret): the database alone does not give the
 * codes away, and a check costs one hash, not one argon2 per stored code.
 */
export function hashBackupCode(key: string, userId: number, code: string): string {
  return `h1:${createHmac('sha256', key).update(`${userId}:${normalizeBackupCode(code)}`).digest('hex')}`
}

/** Whether `code` is the one behind `stored`: our keyed hash, or a bcrypt hash imported from new-api. */
export async function backupCodeMatches(key: string, userId: number, code: string, stored: string): Promise<boolean> {
  if (stored.startsWith('h1:')) return stored === hashBackupCode(key, userId, code)
  if (!stored.startsWith('$2')) return false
  const candidates = new Set([code.trim(), normalizeBackupCode(code)])
  for (const candidate of candidates) if (candidate && (await Bun.password.verify(candidate, stored, 'bcrypt').catch(() => false))) return true
  return false
}
