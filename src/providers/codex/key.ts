import { BadRequestError } from '../../errors'

/**
 * A Codex channel's key: the ChatGPT sign-in's tokens as new-api keeps them (relay/channel/codex's OAuthKey), one
 * JSON object: `access_token`, `refresh_token`, `account_id` (the ChatGPT account the calls are billed to),
 * `email`, `expired` and `last_refresh` (RFC 3339), `type: "codex"`. Stored sealed like every key.
 */
export interface CodexKey {
  id_token?: string
  access_token: string
  refresh_token?: string
  account_id: string
  last_refresh?: string
  email?: string
  type?: string
  expired?: string
}

/** The JWT claim that carries the ChatGPT account (auth.openai.com's access tokens). */
const AUTH_CLAIM = 'https://api.openai.com/auth'

/** The key's fields, or undefined when it is not a Codex key (not a JSON object, no access token or account). */
export function readCodexKey(text: string): CodexKey | undefined {
  let value: unknown
  try {
    value = JSON.parse(text.trim())
  } catch {
    return undefined
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
  const key = value as Record<string, unknown>
  const access = typeof key.access_token === 'string' ? key.access_token.trim() : ''
  const account = typeof key.account_id === 'string' ? key.account_id.trim() : ''
  if (!access || !account) return undefined
  const text_ = (name: string) => (typeof key[name] === 'string' ? (key[name] as string) : undefined)
  return {
    ...(text_('id_token') ? { id_token: text_('id_token') } : {}),
    access_token: access,
    ...(text_('refresh_token') ? { refresh_token: text_('refresh_token') } : {}),
    account_id: account,
    ...(text_('last_refresh') ? { last_refresh: text_('last_refresh') } : {}),
    ...(text_('email') ? { email: text_('email') } : {}),
    type: text_('type') ?? 'codex',
    ...(text_('expired') ? { expired: text_('expired') } : {}),
  }
}

/** The key, or a 400 naming `key` (never quoting it), as new-api checks a Codex key on save. */
export function codexKeyOrThrow(text: string): CodexKey {
  const key = readCodexKey(text)
  if (!key) throw new BadRequestError('a Codex key is the JSON of a ChatGPT sign-in with access_token and account_id: use "Sign in with ChatGPT"', 'key')
  return key
}

/** A JWT's claims (not verified: they only label the key and date it; the upstream checks the token). */
function jwtClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.')
  if (parts.length !== 3) return undefined
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString())
    return claims && typeof claims === 'object' && !Array.isArray(claims) ? (claims as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** The ChatGPT account id and e-mail an access token names. */
export function accountOf(accessToken: string): { accountId?: string; email?: string } {
  const claims = jwtClaims(accessToken)
  const auth = claims?.[AUTH_CLAIM] as Record<string, unknown> | undefined
  const accountId = typeof auth?.chatgpt_account_id === 'string' && auth.chatgpt_account_id.trim() ? auth.chatgpt_account_id.trim() : undefined
  const email = typeof claims?.email === 'string' && claims.email.trim() ? claims.email.trim() : undefined
  return { accountId, email }
}

/** When the access token expires (ms): the key's `expired`, else the token's `exp`; undefined when neither says. */
export function expiresAt(key: CodexKey): number | undefined {
  const stated = key.expired ? Date.parse(key.expired) : NaN
  if (Number.isFinite(stated)) return stated
  const exp = jwtClaims(key.access_token)?.exp
  return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined
}
