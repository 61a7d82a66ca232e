import type { LoginKey } from '../../coord/types'
import { sha256 } from '../../crypto/sha256'
import { parseIpv6 } from '../../net/ip'
import { usernameSkeleton } from '../users/username-skeleton'

/**
 * The address a login counter is kept for: an IPv4 address as it is, an IPv6 one by its /64 (the block one
 * subscriber gets, so stepping through it buys no new attempts).
 */
export function addressGroup(ip: string): string {
  const groups = parseIpv6(ip)
  if (!groups) return ip
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`
}

/**
 * The password's fingerprint in a counter's name: a new password (reset-password, an admin's edit, the user's own
 * change) names new counters on every node and backend at once, so the old failures no longer count.
 */
function passwordGeneration(hash: string): string {
  return sha256(hash).slice(0, 16)
}

/**
 * The two counters of a login: the account from this address (a known user by id and password generation, an
 * unknown name by its look-alike skeleton, so `ROOT` and `rооt` share one), then the address across accounts.
 * Nobody elsewhere can fill either for the owner's own address.
 */
export function loginKeys(input: {
  username: string
  user: { id: number; password: string } | undefined
  ip: string
  perAccount: number
  perAddress: number
}): LoginKey[] {
  const address = addressGroup(input.ip)
  const account = input.user ? `u${input.user.id}.${passwordGeneration(input.user.password)}` : `n.${usernameSkeleton(input.username)}`
  return [
    { key: `acct:${account}|${address}`, free: input.perAccount },
    { key: `addr:${address}`, free: input.perAddress },
  ]
}
