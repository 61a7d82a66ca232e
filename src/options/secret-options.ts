import type { SecretBox } from '../crypto/secret-box'
import { OPTION_DEFINITIONS } from './definitions'

/** What GET /api/option/ shows for a secret that is set; sending it back keeps the stored secret. */
const SECRET_MASK = '********'

export const isSecretOption = (key: string): boolean => OPTION_DEFINITIONS[key]?.secret === true

/** A secret option as the API shows it: the mask when set, '' when not. */
export const maskedSecret = (stored: unknown): string => (stored ? SECRET_MASK : '')

/**
 * The value to store for a secret option as sent: sealed; '' clears it; the mask (unchanged form field) or
 * anything not a string is left to the store's own check. `undefined`: keep what is stored.
 */
export async function sealSecret(box: SecretBox, value: unknown): Promise<unknown> {
  if (typeof value !== 'string') return value
  const text = value.trim()
  if (text === SECRET_MASK) return undefined
  if (text === '') return ''
  return box.encrypt(text)
}

/** A stored secret option's plain text ('' when unset or unreadable: a key from another CRYPTO_SECRET is no key). */
export async function openSecret(box: SecretBox, stored: string): Promise<string> {
  if (!stored) return ''
  try {
    return await box.decrypt(stored)
  } catch {
    return ''
  }
}
