import { t } from 'elysia'
import { BadRequestError } from '../../errors'
import { inHashTurn, type HashTurn } from './hash-queue'
import { USERNAME_PATTERN } from './username-rule'

export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 64

export const Username = t.String({ minLength: 1, maxLength: 40, pattern: USERNAME_PATTERN })
export const isValidUsername = (name: string): boolean => new RegExp(USERNAME_PATTERN).test(name)
export const Password = t.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX })

/** A new argon2id hash, in a turn of the hash queue (hash-queue.ts): 503 when the queue is full. */
export function hashPassword(password: string): Promise<string> {
  return inHashTurn(() => Bun.password.hash(password, 'argon2id'))
}

/**
 * A stored hash that is not Tollgate's own algorithm: bcrypt (`$2a$`, `$2b$`, `$2y$`) as new-api and one-api
 * write it, kept by the import. Bun.password.verify checks it; the first login with it rehashes to argon2id.
 */
export const needsRehash = (hash: string): boolean => !hash.startsWith('$argon2id$')

let dummyHash: Promise<string> | undefined

/**
 * Check a password against a stored hash. Without a hash (unknown user) it still runs one argon2id
 * verification against a dummy, so the time taken does not tell whether the username exists. In `turn` when the
 * caller holds one (login takes its turn before it counts the attempt), else in a turn of its own.
 */
export async function verifyPassword(password: string, hash: string | undefined, turn?: HashTurn): Promise<boolean> {
  // made once, outside the queue: a turn held here while waiting for another could never be given back
  const target = hash ?? (await (dummyHash ??= Bun.password.hash('tollgate-dummy-password', 'argon2id')))
  const check = () => Bun.password.verify(password, target).catch(() => false)
  const matches = await (turn ? check() : inHashTurn(check))
  return hash !== undefined && matches
}

/** For fields where "" means "leave unchanged": undefined for empty, else the password if its length fits. */
export function newPassword(field: string, value: string | undefined): string | undefined {
  if (!value) return undefined
  if (value.length < PASSWORD_MIN || value.length > PASSWORD_MAX) {
    throw new BadRequestError(`field "${field}": a password has ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, field)
  }
  return value
}
