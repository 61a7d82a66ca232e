import type { UserRepo } from '../db/repos'
import type { EndedPlan, SubscriptionRepo } from '../db/repos/subscriptions'
import { periodic } from '../cluster/periodic'
import { PlanError } from './plans'

type GroupDeps = { subscriptions: Pick<SubscriptionRepo, 'cancel' | 'expireUpgrades' | 'forgetHolder'>; users: Pick<UserRepo, 'forget'> }

/** How often the sweep gives back the groups of plans that ended, and how many plans one pass ends at most. */
const SWEEP_EVERY_MS = 60_000
const SWEEP_BATCH = 200

/** What this node remembers of a user whose plan or group changed (the other nodes hear it on the users topic). */
function forgetHolders(deps: GroupDeps, ended: readonly EndedPlan[]): void {
  for (const end of ended) {
    deps.users.forget(end.userId)
    deps.subscriptions.forgetHolder(end.userId)
  }
}

/** An admin withdraws a held plan: it pays for nothing from now on, and the group it raised goes back in the same transaction. */
export async function cancelPlan(deps: GroupDeps, id: number, now: number): Promise<EndedPlan> {
  const ended = await deps.subscriptions.cancel(id, now)
  if (!ended) throw new PlanError('unknown_subscription', 'no active subscription has this id', 'id', 404)
  forgetHolders(deps, [ended])
  return ended
}

/**
 * One pass of the sweep: plans past their end (read from the clock) that raised their holder's group are marked
 * expired and give the group back, batch after batch until none is left. Answers how many plans it ended.
 */
export async function expireUpgrades(deps: GroupDeps, now: number): Promise<number> {
  let total = 0
  for (;;) {
    const ended = await deps.subscriptions.expireUpgrades(now, SWEEP_BATCH)
    forgetHolders(deps, ended)
    total += ended.length
    if (ended.length < SWEEP_BATCH) return total
  }
}

/** The sweep as a job run by one node at a time (src/cluster/exclusive-jobs.ts). */
export const upgradeSweepJob = (deps: GroupDeps, clock: { now(): number }) => ({
  name: 'plan-group-sweep',
  ...periodic('plan group sweep', 0, SWEEP_EVERY_MS, () => expireUpgrades(deps, Math.floor(clock.now() / 1000))),
})
