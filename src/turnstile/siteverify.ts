/**
 * Cloudflare Turnstile, as new-api checks it: with TurnstileCheckEnabled the widget's token comes as the
 * `?turnstile=` query parameter of login, registration, the verification mail and the password reset mail, and the
 * server asks siteverify (a form POST of secret, response and remoteip) through the outbound guard before doing
 * anything else. PROVIDER_ENDPOINTS' `turnstile` entry moves challenges.cloudflare.com (a mirror, a test's fake).
 */
import { GatewayError } from '../errors'
import type { OptionStore } from '../options/store'
import { openSecretOption } from '../options/secret-options'
import type { OutboundFetch } from '../outbound/fetch'

const SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify'
/** Cloudflare's limit on a token's length. */
export const TURNSTILE_TOKEN_MAX = 2048
const SITEVERIFY_TIMEOUT_MS = 10_000

export interface TurnstilePieces {
  options: Pick<OptionStore, 'get'>
  cryptoSecret: string
  fetch: OutboundFetch
}

const refused = (status: number, code: string, message: string) => new GatewayError(status, code, message, 'turnstile', undefined, { code })

/** Nothing when Turnstile is off or the token passes; else 400 turnstile_missing, 403 turnstile_failed or 503 turnstile_unavailable. */
export async function checkTurnstile(pieces: TurnstilePieces, token: string | undefined, remoteIp: string): Promise<void> {
  if (!pieces.options.get<boolean>('TurnstileCheckEnabled')) return
  if (!token) throw refused(400, 'turnstile_missing', 'the Turnstile check is missing: complete it, then try again')
  const secret = await openSecretOption(pieces.cryptoSecret, pieces.options, 'TurnstileSecretKey')
  const form = new URLSearchParams({ secret, response: token.slice(0, TURNSTILE_TOKEN_MAX), remoteip: remoteIp })
  let outcome: { success?: unknown; 'error-codes'?: unknown }
  try {
    const response = await pieces.fetch(SITEVERIFY_URL, { method: 'POST', body: form, signal: AbortSignal.timeout(SITEVERIFY_TIMEOUT_MS) })
    if (!response.ok) throw new Error(`siteverify answered ${response.status}`)
    outcome = (await response.json()) as typeof outcome
  } catch (error) {
    throw refused(503, 'turnstile_unavailable', `the Turnstile check could not be verified now (${(error as Error).message}): try again`)
  }
  if (outcome.success !== true) {
    const codes = Array.isArray(outcome['error-codes']) ? outcome['error-codes'].filter((c) => typeof c === 'string').slice(0, 5).join(', ') : ''
    throw refused(403, 'turnstile_failed', `the Turnstile check failed${codes ? ` (${codes})` : ''}: refresh it and try again`)
  }
}
