// The one-time setup code: until root exists, whoever reaches the setup route from the network must show it.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { isLoopback } from '../../net/ip'
import { relayedByProxy } from '../../plugins/request-context'

const ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ0123456789' // Crockford-like: no I, L, O, U to misread
const CODE_LENGTH = 12 // 60 bits: out of reach at any request rate, and the attempts are limited besides

/**
 * The code, derived from the session secret (HMAC): nothing to store, the same on every node of a cluster
 * (they share SESSION_SECRET), printed again at each start while setup is pending, and useless once root exists.
 * Whoever can read the session secret could sign a root session anyway.
 */
export function setupCodeOf(sessionSecret: string): string {
  const digest = createHmac('sha256', sessionSecret).update('tollgate setup code v1').digest()
  let code = ''
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[digest[i]! % ALPHABET.length]
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`
}

/** Case, spaces and dashes do not matter; compared in constant time (both sides hashed to one length first). */
export function setupCodeMatches(given: string, code: string): boolean {
  const digest = (text: string) => createHmac('sha256', 'tollgate setup code compare').update(text.toUpperCase().replace(/[\s-]/g, '')).digest()
  return timingSafeEqual(digest(given), digest(code))
}

/**
 * A request needs no code when it comes from this machine: the socket's peer is a loopback address (never a
 * header's claim), no proxy says it relays someone else (a proxy on this host connects from loopback too), and
 * the Host header names this machine: a page whose own name was rebound to 127.0.0.1 (DNS rebinding) in a
 * browser on the server sends its own name there. `peer` is undefined when there is no socket (an in-process
 * call): treated as from the network.
 */
export function isLocalRequest(peer: string | undefined, headers: Headers): boolean {
  if (!peer || !isLoopback(peer)) return false
  return !relayedByProxy(headers) && namesThisMachine(headers.get('host'))
}

/** `localhost` (or a name under it), a loopback address, or `[::1]`, with or without a port. */
function namesThisMachine(host: string | null): boolean {
  if (!host) return false
  const name = host.toLowerCase().replace(/:\d+$/, '')
  if (name === 'localhost' || name.endsWith('.localhost') || name === '[::1]') return true
  return isLoopback(name)
}

