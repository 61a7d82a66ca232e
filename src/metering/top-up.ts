import type { Repos } from '../db/repos'
import type { Usage } from '../ir'
import { quotaFor } from './prices'
import type { Reservation } from './reserve'

/**
 * A running reservation (a realtime session) against its usage so far: once what is left of it falls under half
 * its first size, it is topped up to the cost so far plus that size again, in its own hold. False when the balances
 * cannot pay that (nothing taken), or the reservation is already settled: the caller ends the request.
 */
export async function topUp(deps: { repos: Pick<Repos, 'quota'> }, r: Reservation, input: { userId: number; tokenId: number }, usage: Usage): Promise<boolean> {
  if (r.settled) return false
  // a plan pays this one: the wallet's hold cannot grow it (the plan's settlement would never give that back), so
  // it runs within what the plan reserved and ends there (topping up a plan's take is not built)
  if (r.plan) return r.reserved - (quotaFor(r.price, usage, r.quotaPerUnit) + r.fee) > 0
  const stretch = (r.stretch ??= r.reserved)
  const spent = quotaFor(r.price, usage, r.quotaPerUnit) + r.fee
  if (stretch === 0 || r.reserved - spent >= stretch / 2) return true
  const amount = spent + stretch - r.reserved
  const result = await deps.repos.quota.topUp(r.hold, input.userId, input.tokenId, r.tokenLimited, amount)
  if (!result.ok || r.settled) return false
  r.reserved += amount
  return true
}
