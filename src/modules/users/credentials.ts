import { t } from 'elysia'
import { BadRequestError } from '../../errors'

export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 64

/** 1–20 letters, digits and `_ . @ -`: safe in URLs, logs and the UI. */
export const Username = t.String({ minLength: 1, maxLength: 20, pattern: '^[A-Za-z0-9_.@-]+$' })
export const Password = t.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX })

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, 'argon2id')
}

let dummyHash: Promise<string> | undefined

/**
 * Check a password against a stored hash. Without a hash (unknown user) it still runs one argon2id
 * verification against a dummy, so the time taken does not tell whether the username exists.
 */
export async function verifyPassword(password: string, hash: string | undefined): Promise<boolean> {
  const target = hash ?? (await (dummyHash ??= hashPassword('tollgate-dummy-password')))
  const matches = await Bun.password.verify(password, target).catch(() => false)
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
