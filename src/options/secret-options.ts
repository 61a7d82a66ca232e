import { createSecretBox, type SecretBox } from '../crypto/secret-box'
import { OPTION_DEFINITIONS, type OptionDefinition } from './definitions'
import type { OptionValue } from './store'

/** What GET /api/option/ shows for a secret that is set (an empty one shows ''); sending it back keeps the secret. */
export const SECRET_SET = '********'

const boxes = new Map<string, SecretBox>()
function boxFor(cryptoSecret: string): SecretBox {
  let box = boxes.get(cryptoSecret)
  if (!box) boxes.set(cryptoSecret, (box = createSecretBox(cryptoSecret)))
  return box
}

const isSecretOption = (key: string, definitions: Record<string, OptionDefinition> = OPTION_DEFINITIONS): boolean => definitions[key]?.secret === true

/** The option list as the console sees it: a secret's value is SECRET_SET or '', never the secret. */
export function maskSecrets<T extends { key: string; value: OptionValue }>(entries: T[]): (T & { secret?: true })[] {
  return entries.map((entry) => (isSecretOption(entry.key) ? { ...entry, value: entry.value === '' ? '' : SECRET_SET, secret: true as const } : entry))
}

/**
 * The value to store for `key`: a secret is sealed (AES-GCM under the crypto secret), '' clears it; SECRET_SET
 * (the mask sent back unchanged) answers undefined: keep what is stored.
 */
export async function sealOption(cryptoSecret: string, key: string, value: unknown): Promise<unknown> {
  if (!isSecretOption(key) || typeof value !== 'string' || value.trim() === '') return value
  if (value === SECRET_SET) return undefined
  return boxFor(cryptoSecret).encrypt(value.trim())
}

/** A secret option's plaintext ('' when unset); a value stored before it was sealed (an old row) is used as it is. */
export async function openSecretOption(cryptoSecret: string, stored: string): Promise<string> {
  if (!stored.startsWith('v1:')) return stored
  return boxFor(cryptoSecret).decrypt(stored)
}
