import type { SQL } from 'bun'
import type { QuotaRepo, ReserveResult, SettleInput, SettleResult } from '../../repos/quota'
import type { TokenRow, UserRow } from '../../repos/rows'
import { isInt4 } from './sql'

/** How long a reservation's hold lives without its node renewing it, and how often nodes renew and sweep. */
export interface HoldLease {
  /** a hold not renewed for this long is given back by the next sweep (default 45 s: QUOTA_HOLD_TTL_SECONDS) */
  ttlSeconds: number
  /** how often this node renews the expiry of its holds, in one UPDATE (default: a third of the TTL; 0 = never, for tests) */
  renewEveryMs: number
  /** how often this node gives back expired holds, any node's (default 10 s, and once at start; 0 = never) */
  sweepEveryMs: number
}

/**
 * The lease of a TTL: renewed every third of it, swept every quarter of it (10 s at most), so a dead node's holds
 * are back within TTL + one sweep: 45 s + 10 s by default, inside the minute the issue allows.
 */
export const leaseOf = (ttlSeconds: number): HoldLease => ({ ttlSeconds, renewEveryMs: Math.round((ttlSeconds * 1000) / 3), sweepEveryMs: Math.min(10_000, Math.round((ttlSeconds * 1000) / 4)) })

export const DEFAULT_LEASE: HoldLease = leaseOf(45)

/** Where the cosmetic copies of the balances live: the users' and tokens' cached rows, when cached. */
export interface CachedRows {
  user(id: number): UserRow | undefined
  token(id: number): TokenRow | undefined
}

interface ReserveRow {
  ok: boolean
  hold: string | null
  user_quota: string | null
  token_remain: string | null
}
interface SettleRow {
  charged: string
  user_quota: string | null
  user_used: string | null
  user_requests: string | null
  token_remain: string | null
  token_used: string | null
  token_accessed: string | null
}

const num = (v: string | null): number | undefined => (v === null ? undefined : Number(v))

/**
 * The relay's quota moves on PostgreSQL, decided by the database, never by this node's cached rows: a
 * reservation is one call of `tollgate_reserve` (conditional UPDATEs of user and token, both or neither, and a
 * hold row), a settlement one call of `tollgate_settle` (the hold deleted, refund or extra charge, usage counted),
 * each one round trip and one transaction (migration 0002_quota_functions.sql). A hold carries this node's id
 * and an expiry this node renews while its request runs; a node that dies stops renewing, and any node's sweep
 * gives its holds back within the lease. The balances the functions return update the cached rows in place, so
 * relay auth and the console show them (cosmetic: the next reservation asks the database again).
 */
export function createPostgresQuota(client: SQL, options: { nodeId: string; lease: HoldLease; cached: CachedRows }) {
  const { nodeId, lease, cached } = options
  // the holds of this node's running requests: only these are renewed, so a hold whose settlement failed expires
  const live = new Set<number>()
  const timers: ReturnType<typeof setInterval>[] = []
  const running = new Set<Promise<unknown>>()

  const quota: QuotaRepo = {
    async reserve(userId: number, tokenId: number, tokenLimited: boolean, amount: number): Promise<ReserveResult> {
      if (!isInt4(userId) || !isInt4(tokenId)) return { ok: false, userQuota: 0, tokenRemain: tokenLimited ? 0 : undefined }
      const [r] = (await client`SELECT * FROM tollgate_reserve(${userId}::int4, ${tokenId}::int4, ${tokenLimited}::bool, ${amount}::int8, ${nodeId}::text, ${lease.ttlSeconds}::float8)`) as ReserveRow[]
      const userQuota = num(r!.user_quota)
      const tokenRemain = tokenLimited ? num(r!.token_remain) : undefined
      if (!r!.ok) return { ok: false, userQuota, tokenRemain }
      const hold = Number(r!.hold)
      live.add(hold)
      const user = cached.user(userId)
      if (user && userQuota !== undefined) user.quota = userQuota
      const token = tokenLimited ? cached.token(tokenId) : undefined
      if (token && tokenRemain !== undefined) token.remainQuota = tokenRemain
      return { ok: true, userQuota, tokenRemain, hold }
    },

    async settle(s: SettleInput): Promise<SettleResult> {
      let r: SettleRow
      try {
        ;[r] = (await client`SELECT * FROM tollgate_settle(${s.hold ?? null}::int8, ${s.userId}::int4, ${s.tokenId}::int4, ${s.tokenLimited}::bool, ${s.channelId}::int4, ${s.reserved}::int8, ${s.actual}::int8, ${s.now}::int8)`) as SettleRow[] as [SettleRow]
      } finally {
        if (s.hold !== undefined) live.delete(s.hold)
      }
      const result: SettleResult = { charged: Number(r.charged) }
      if (r.user_quota !== null) {
        result.user = { quota: Number(r.user_quota), usedQuota: Number(r.user_used), requestCount: Number(r.user_requests) }
        const user = cached.user(s.userId)
        if (user) Object.assign(user, result.user)
      }
      if (r.token_remain !== null) {
        result.token = { remainQuota: Number(r.token_remain), usedQuota: Number(r.token_used), accessedTime: Number(r.token_accessed) }
        const token = cached.token(s.tokenId)
        if (token) Object.assign(token, result.token)
      }
      return result
    },

    /** Every move is written at once: nothing is ever left pending. */
    onDirty() {},
  }

  /** Push the expiry of this node's live holds one lease ahead, in one UPDATE. */
  async function renew(): Promise<number> {
    if (live.size === 0) return 0
    const ids = `{${[...live].join(',')}}`
    const done = await client`UPDATE quota_holds SET expires_at = now() + make_interval(secs => ${lease.ttlSeconds}::float8)
      WHERE node_id = ${nodeId} AND id = ANY(${ids}::int8[])`
    return done.count
  }

  /** Give back every expired hold (any node's) to the balances; answers how many went. */
  async function sweep(): Promise<number> {
    const [r] = (await client`SELECT tollgate_sweep_holds() AS n`) as { n: number }[]
    return r!.n
  }

  /** Run a background job, logged on failure, tracked so `stop` can wait for it. */
  const run = (job: () => Promise<unknown>, name: string) => {
    const done = job()
      .catch((error: unknown) => console.error(`quota holds: ${name} failed: ${(error as Error).message}`))
      .finally(() => running.delete(done))
    running.add(done)
  }
  const every = (ms: number, job: () => Promise<unknown>, name: string) => {
    if (ms <= 0) return
    const timer = setInterval(() => run(job, name), ms)
    timer.unref()
    timers.push(timer)
  }

  return {
    quota,
    renew,
    sweep,
    /** how many holds this node renews now */
    get liveHolds(): number {
      return live.size
    },
    /** Start renewing and sweeping (a first sweep at once, for holds a crashed predecessor left). */
    start(): void {
      every(lease.renewEveryMs, renew, 'renewal')
      every(lease.sweepEveryMs, sweep, 'sweep')
      if (lease.sweepEveryMs > 0) run(sweep, 'sweep')
    },
    /** Stop the timers and wait for a renewal or sweep still running. */
    async stop(): Promise<void> {
      for (const timer of timers.splice(0)) clearInterval(timer)
      await Promise.allSettled([...running])
    },
  }
}
