import type { StoredSubscriptionRepo, SubscriptionRepo } from './subscriptions'

/** A user is remembered as holding no plan this long at most (a safety net: grants and purchases forget at once). */
const NO_PLAN_TTL_MS = 60_000
/** Users remembered at most; past it the memory starts again (a lookup costs one query, never a wrong answer). */
const MAX_REMEMBERED = 100_000

/**
 * The plan lookup of every metered request (`spendable`), answered from memory for users known to hold no plan: most
 * users of a gateway hold none, and the lookup was one query per request for them. Only that answer is kept (a holder's
 * plans are read each time, so a period, an end or a cancellation applies at once). A grant on this node forgets the
 * user here; `forgetHolder` is what a purchase (granted in the order's transaction) and another node's grant call
 * (the users topic, src/cluster/invalidations.ts).
 */
export function withPlanHolderCache(repo: StoredSubscriptionRepo, clock: () => number = Date.now): SubscriptionRepo {
  const noPlan = new Map<number, number>()
  // bumped by every grant and forget: a lookup that ran across one does not remember its (maybe stale) answer
  let epoch = 0
  const forget = (userId?: number) => {
    epoch++
    if (userId === undefined) noPlan.clear()
    else noPlan.delete(userId)
  }
  const knownNone = (userId: number) => {
    const since = noPlan.get(userId)
    return since !== undefined && clock() - since < NO_PLAN_TTL_MS
  }
  return {
    ...repo,
    async spendable(userId, now) {
      if (knownNone(userId)) return []
      const asked = epoch
      const rows = await repo.spendable(userId, now)
      if (rows.length === 0 && asked === epoch) {
        if (noPlan.size >= MAX_REMEMBERED) noPlan.clear()
        noPlan.set(userId, clock())
      }
      return rows
    },
    async grant(row) {
      forget(row.userId)
      try {
        return await repo.grant(row)
      } finally {
        forget(row.userId)
      }
    },
    forgetHolder: forget,
    holdsNoPlan: knownNone,
  }
}
