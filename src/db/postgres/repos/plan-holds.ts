import type { SQL } from 'bun'
import type { HoldLease } from './quota'

/**
 * The leases of plan takes on PostgreSQL (table plan_holds), the rule quota_holds follow: a take writes a hold row with
 * this node's id; this node renews the expiry of its live holds; a hold past its expiry whose node is gone (its
 * advisory lock, node-guard.ts, is free) is given back by any node's sweep: its amount to the plan's period (when the
 * plan is still in the period it was taken in) and a limited key's part to the key. A settlement deletes its hold;
 * when the sweep got there first it knows, and charges only what the period and the key still hold.
 */
export function createPlanHolds(client: SQL, nodeId: string, lease: HoldLease) {
  const live = new Set<number>()

  /** Push the expiry of this node's live plan holds one lease ahead, in one UPDATE. */
  async function renew(): Promise<number> {
    if (live.size === 0) return 0
    const ids = `{${[...live].join(',')}}`
    const done = await client`UPDATE plan_holds SET expires_at = now() + make_interval(secs => ${lease.ttlSeconds}::float8)
      WHERE node_id = ${nodeId} AND id = ANY(${ids}::int8[])`
    return done.count
  }

  /**
   * Give back every expired hold of a node that is gone, in one transaction under the quota sweep's lock (one sweep at
   * a time across nodes); answers how many went.
   */
  async function sweep(): Promise<number> {
    return client.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(7461017004)`
      // a node's lock that this transaction can share is held by no session: that node is gone
      const dead = (await tx`SELECT node_id FROM (SELECT DISTINCT node_id FROM plan_holds WHERE expires_at < now()) expired
        WHERE pg_try_advisory_xact_lock_shared(hashtextextended('tollgate-node:' || node_id, 0))`) as { node_id: string }[]
      if (dead.length === 0) return 0
      const nodes = `{${dead.map((d) => `"${d.node_id.replace(/["\\]/g, '\\$&')}"`).join(',')}}`
      const [r] = (await tx`WITH gone AS (
          DELETE FROM plan_holds WHERE expires_at < now() AND node_id = ANY(${nodes}::text[])
          RETURNING subscription_id, period_start, amount, token_id, token_amount
        ), to_plans AS (
          UPDATE user_subscriptions s SET amount_used = greatest(0, s.amount_used - coalesce((SELECT sum(g.amount) FROM gone g
              WHERE g.subscription_id = s.id AND g.period_start = s.last_reset_time), 0))
            WHERE s.id IN (SELECT subscription_id FROM gone)
        ), to_tokens AS (
          UPDATE tokens t SET remain_quota = t.remain_quota + g.amount
            FROM (SELECT token_id, sum(token_amount) AS amount FROM gone WHERE token_amount > 0 GROUP BY token_id) g WHERE t.id = g.token_id
        )
        SELECT count(*)::int AS n FROM gone`) as { n: number }[]
      return r!.n
    })
  }

  return {
    /** a take's hold, renewed from now on */
    taken(hold: number): void {
      live.add(hold)
    },
    /** a settlement ended it (or found it swept) */
    ended(hold: number): void {
      live.delete(hold)
    },
    renew,
    sweep,
    get live(): number {
      return live.size
    },
  }
}

export type PlanHolds = ReturnType<typeof createPlanHolds>
