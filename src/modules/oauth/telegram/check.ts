import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { oauthError } from '../errors'
import type { ProviderProfile } from '../profile'

/** How old the widget's data may be (its `auth_date`), and how far ahead of our clock. */
export const TELEGRAM_AUTH_MAX_AGE_SECONDS = 3600
const CLOCK_SKEW_SECONDS = 60
const MAX_FIELDS = 12
const MAX_VALUE = 512

const invalid = () => oauthError(400, 'telegram_auth_invalid', 'this Telegram sign-in is not signed by the bot: start again from the Telegram button')

/**
 * The account Telegram's login widget vouches for, checked as Telegram documents it
 * (https://core.telegram.org/widgets/login#checking-authorization): every field but `hash`, sorted by name, as
 * `name=value` lines joined by "\n" is the data-check-string; its HMAC-SHA-256 under the key SHA-256(bot token), in
 * hex, must be `hash`. The data must be fresh (`auth_date`); a replay is the caller's to refuse (by the hash).
 */
export function checkTelegramData(params: URLSearchParams, botToken: string, nowSeconds: number): { profile: ProviderProfile; hash: string } {
  const fields = new Map<string, string>()
  for (const [key, value] of params) {
    // one value per field, names as Telegram's, bounded: anything else is not the widget's data
    if (fields.has(key) || !/^[a-z_]{1,32}$/.test(key) || value.length > MAX_VALUE || fields.size >= MAX_FIELDS) throw invalid()
    fields.set(key, value)
  }
  const hash = fields.get('hash') ?? ''
  const id = fields.get('id') ?? ''
  const authDate = Number(fields.get('auth_date') ?? '')
  if (!/^[0-9a-f]{64}$/.test(hash) || !/^[1-9][0-9]{0,19}$/.test(id) || !Number.isSafeInteger(authDate)) throw invalid()
  fields.delete('hash')
  const checkString = [...fields.keys()].sort().map((key) => `${key}=${fields.get(key)}`).join('\n')
  const key = createHash('sha256').update(botToken).digest()
  const expected = createHmac('sha256', key).update(checkString).digest()
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) throw invalid()
  if (nowSeconds - authDate > TELEGRAM_AUTH_MAX_AGE_SECONDS || authDate > nowSeconds + CLOCK_SKEW_SECONDS) {
    throw oauthError(400, 'telegram_auth_expired', 'this Telegram sign-in is too old: start again from the Telegram button')
  }
  const username = fields.get('username') ?? ''
  const displayName = [fields.get('first_name') ?? '', fields.get('last_name') ?? ''].filter(Boolean).join(' ')
  // Telegram gives no e-mail address: nothing to join or store
  return { profile: { id, username, displayName: displayName || username, email: '', emailVerified: false }, hash }
}
