import { createSecretBox, type SecretBox } from '../crypto/secret-box'
import { OPTION_DEFINITIONS } from './definitions'
import type { OptionStore, OptionValue } from './store'

/**
 * Options that hold a password or key (`secret: true`: SMTPToken, TurnstileSecretKey): sealed with the crypto
 * secret (AES-GCM, crypto/secret-box.ts) before the option store writes them, so the options table, backups and
 * other nodes' caches only ever see `v1:…`; the API shows them as '' with `configured` saying whether one is set.
 */
const isSecretOption = (key: string): boolean => OPTION_DEFINITIONS[key]?.secret === true

/** A form field that was never touched may send back this old mask: it means "keep the stored secret". */
const OLD_MASK = '********'

/** The value to store for `key`: a secret sealed ('' stays '': clearing it; the mask: undefined, keep it), anything else as sent. */
export async function sealOptionValue(cryptoSecret: string, key: string, value: unknown): Promise<unknown> {
  if (!isSecretOption(key) || typeof value !== 'string' || value.trim() === '') return value
  if (value.trim() === OLD_MASK) return undefined
  return createSecretBox(cryptoSecret).encrypt(value.trim())
}

/** A secret option in clear text for the one call that needs it ('' when unset or unreadable, as `openSecret`). */
export function openSecretOption(cryptoSecret: string, options: Pick<OptionStore, 'get'>, key: string): Promise<string> {
  return openSecret(createSecretBox(cryptoSecret), options.get<string>(key))
}

/** An option as the API shows it: a secret's value is '' and `configured` says whether one is stored. */
export function maskOption<T extends { key: string; value: OptionValue }>(option: T): T & { configured?: boolean } {
  if (!isSecretOption(option.key)) return option
  return { ...option, value: '', configured: option.value !== '' }
}

/** The body of an option write as the manage log may keep it: a secret's value redacted. */
export function redactSecretOption(body: unknown): unknown {
  if (!body || typeof body !== 'object' || !isSecretOption(String((body as { key?: unknown }).key))) return body
  return { ...body, value: '[redacted]' }
}

/** A stored secret option's plain text ('' when unset or unreadable: a key sealed under another CRYPTO_SECRET is no key). */
export async function openSecret(box: SecretBox, stored: string): Promise<string> {
  if (!stored) return ''
  try {
    return await box.decrypt(stored)
  } catch {
    return ''
  }
}
