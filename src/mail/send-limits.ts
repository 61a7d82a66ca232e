import type { Coordination } from '../coord'
import { waitInWords } from '../coord/limit-errors'
import { sha256 } from '../crypto/sha256'
import { RateLimitError } from '../errors'
import { addressGroup } from '../modules/auth/login-keys'
import type { OptionStore } from '../options/store'

const HOUR = 3600

/**
 * One mail asked for (a code or a reset link), counted across nodes against the client's address (an IPv6 /64)
 * and the recipient, each per hour, or 429 with the wait. Counted whether or not the address has an account, so
 * the limits tell nothing either.
 */
export async function countMailRequest(pieces: { coord: Pick<Coordination, 'windowHit'>; options: Pick<OptionStore, 'get'> }, ip: string, email: string): Promise<void> {
  const perClient = pieces.options.get<number>('EmailPerClientPerHour')
  const perRecipient = pieces.options.get<number>('EmailPerRecipientPerHour')
  if (perClient > 0) refuseWhenFull(await pieces.coord.windowHit([`mail:from:${addressGroup(ip)}`], perClient, HOUR), 'from this address')
  if (perRecipient > 0) refuseWhenFull(await pieces.coord.windowHit([`mail:to:${sha256(email).slice(0, 32)}`], perRecipient, HOUR), 'to this e-mail address')
}

function refuseWhenFull(hit: { ok: true } | { ok: false; retryAfter: number }, what: string): void {
  if (!hit.ok) throw new RateLimitError(`too many mails asked for ${what}: try again in ${waitInWords(hit.retryAfter)}`, hit.retryAfter, 'mail_rate_limited')
}
