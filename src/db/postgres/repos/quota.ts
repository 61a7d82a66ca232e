import type { SQL } from 'bun'
import type { ElsewhereInput, QuotaRepo, ReserveResult, SettleInput, SettleResult } from '../../repos/quota'
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

/** Holds of another kind (a plan's takes: plan-holds.ts) that follow the same lease, renewed and swept with these. */
interface OtherHolds {
  renew(): Promise<number>
  sweep(): Promise<number>
}

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

/** What queued settlements move: their charge, what goes back to the user and to a limited token, and how many there are. */
interface Move {
  charged: number
  refund: number
  tokenRefund: number
  count: number
}

function addMove(sums: Map<number, Move>, id: number, move: Move, sign: 1 | -1): void {
  const sum = sums.get(id) ?? { charged: 0, refund: 0, tokenRefund: 0, count: 0 }
  sum.charged += sign * move.charged
  sum.refund += sign * move.refund
  sum.tokenRefund += sign * move.tokenRefund
  sum.count += sign * move.count
  if (sum.count === 0) sums.delete(id)
  else sums.set(id, sum)
}

/**
 * The relay's quota moves on PostgreSQL, decided by the database, never by this node's cached rows: a
 * reservation is one call of `tollgate_reserve` (conditional UPDATEs of user and token, both or neither, and a
 * hold row; one round trip on the request's path); a settlement is queued (`defer`) and written with the next log
 * batch by `tollgate_settle_batch`, in the batch's transaction (migrations 0002 and 0003). A hold carries this
 * node's id and an expiry this node renews while its request runs; a node that dies stops renewing, and any
 * node's sweep gives its holds back within the lease. The cached rows show the database's balances plus the
 * queued moves, so relay auth and the console see them (cosmetic: the next reservation asks the database again).
 */
export function createPostgresQuota(client: SQL, options: { nodeId: string; lease: HoldLease; cached: CachedRows; also?: OtherHolds }) {
  const { nodeId, lease, cached, also } = options
  // the holds of this node's requests, running or waiting for their settlement's batch: only these are renewed
  const live = new Set<number>()
  const timers: ReturnType<typeof setInterval>[] = []
  const running = new Set<Promise<unknown>>()
  // settlements within their reservation, waiting for the next log batch (Repos.commitMetering)
  let pending: SettleInput[] = []
  // what each queued settlement answered and will move, and the sum of those moves per user and per token: the
  // cached rows show the database's balances plus these, so a refund waiting for its batch is never missing there
  const moves = new WeakMap<SettleInput, Move>()
  const userMoves = new Map<number, Move>()
  const tokenMoves = new Map<number, Move>()
  let onQueued: () => void = () => {}

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
      if (user && userQuota !== undefined) user.quota = userQuota + (userMoves.get(userId)?.refund ?? 0)
      const token = tokenLimited ? cached.token(tokenId) : undefined
      if (token && tokenRemain !== undefined) token.remainQuota = tokenRemain + (tokenMoves.get(tokenId)?.refund ?? 0)
      return { ok: true, userQuota, tokenRemain, hold }
    },

    /**
     * One transaction, locks in the order of tollgate_reserve's (the hold, the user, the token): the hold grows by
     * `amount` and the balances shrink by it, all or nothing; a hold a sweep already gave back is not topped up.
     */
    async topUp(hold: number | undefined, userId: number, tokenId: number, tokenLimited: boolean, amount: number): Promise<ReserveResult> {
      if (hold === undefined || !live.has(hold) || !isInt4(userId) || !isInt4(tokenId)) return { ok: false, userQuota: 0, tokenRemain: tokenLimited ? 0 : undefined }
      const refused = new Error('top-up refused')
      let balances: { userQuota?: number; tokenRemain?: number } = {}
      try {
        balances = await client.begin(async (tx) => {
          const held = await tx`UPDATE quota_holds SET amount = amount + ${amount}::int8 WHERE id = ${hold}::int8 RETURNING id`
          if (held.length === 0) throw refused
          const [user] = (await tx`UPDATE users SET quota = quota - ${amount}::int8 WHERE id = ${userId}::int4 AND quota >= ${amount}::int8 RETURNING quota`) as { quota: string }[]
          if (!user) throw refused
          if (!tokenLimited) return { userQuota: Number(user.quota) }
          const [token] = (await tx`UPDATE tokens SET remain_quota = remain_quota - ${amount}::int8 WHERE id = ${tokenId}::int4 AND remain_quota >= ${amount}::int8 RETURNING remain_quota`) as { remain_quota: string }[]
          if (!token) throw refused
          return { userQuota: Number(user.quota), tokenRemain: Number(token.remain_quota) }
        })
      } catch (error) {
        if (error !== refused) throw error
        const [row] = (await client`SELECT u.quota, t.remain_quota FROM users u LEFT JOIN tokens t ON t.id = ${tokenId}::int4 WHERE u.id = ${userId}::int4`) as { quota: string | null; remain_quota: string | null }[]
        return { ok: false, userQuota: num(row?.quota ?? null) ?? 0, tokenRemain: tokenLimited ? (num(row?.remain_quota ?? null) ?? 0) : undefined }
      }
      const user = cached.user(userId)
      if (user && balances.userQuota !== undefined) user.quota = balances.userQuota + (userMoves.get(userId)?.refund ?? 0)
      const token = tokenLimited ? cached.token(tokenId) : undefined
      if (token && balances.tokenRemain !== undefined) token.remainQuota = balances.tokenRemain + (tokenMoves.get(tokenId)?.refund ?? 0)
      return { ok: true, ...balances, hold }
    },

    // a plan's request: one conditional UPDATE of the key; the plan's take that follows records it in its hold (plan_holds), so a dead node's sweep gives it back with the take
    async holdToken(tokenId, amount) {
      if (!isInt4(tokenId)) return { ok: false, tokenRemain: 0 }
      const [row] = (await client`UPDATE tokens SET remain_quota = remain_quota - ${amount}::int8 WHERE id = ${tokenId}::int4 AND remain_quota >= ${amount}::int8 RETURNING remain_quota`) as { remain_quota: string }[]
      if (!row) {
        const [now] = (await client`SELECT remain_quota FROM tokens WHERE id = ${tokenId}::int4`) as { remain_quota: string }[]
        return { ok: false, tokenRemain: Number(now?.remain_quota ?? 0) }
      }
      const tokenRemain = Number(row.remain_quota)
      const token = cached.token(tokenId)
      if (token) token.remainQuota = tokenRemain + (tokenMoves.get(tokenId)?.tokenRefund ?? 0)
      return { ok: true, tokenRemain }
    },

    // written at once, in the batches' lock order (users, tokens, channels)
    async settleElsewhere(e: ElsewhereInput) {
      const limited = e.tokenLimited
      await client.begin(async (tx) => {
        await tx`UPDATE users SET used_quota = used_quota + ${e.charged}::int8 WHERE id = ${e.userId}::int4`
        await tx`UPDATE tokens SET remain_quota = remain_quota + CASE WHEN ${limited}::bool
              THEN ${e.tokenHeld}::int8 - least(${e.charged}::int8, ${e.tokenHeld}::int8 + greatest(remain_quota, 0)) ELSE 0 END,
            used_quota = used_quota + ${e.charged}::int8, accessed_time = greatest(accessed_time, ${e.now}::int8)
          WHERE id = ${e.tokenId}::int4`
        if (e.charged > 0 && e.channelId > 0) await tx`UPDATE channels SET used_quota = used_quota + ${e.charged}::int8 WHERE id = ${e.channelId}::int4`
      })
      const user = cached.user(e.userId)
      if (user) user.usedQuota += e.charged
      const token = cached.token(e.tokenId)
      if (token) {
        token.usedQuota += e.charged
        if (limited) token.remainQuota += e.tokenHeld - Math.min(e.charged, e.tokenHeld + Math.max(0, token.remainQuota))
      }
    },

    /** Queued for the next log batch (see `defer`); answers at once. */
    async settle(s: SettleInput): Promise<SettleResult> {
      return defer(s)
    },

    /** `callback` runs when a settlement is queued after a batch took the last ones (the log writer's wake). */
    onDirty(callback: () => void) {
      onQueued = callback
    },

    hasPending: () => pending.length > 0,
  }

  /**
   * Queue the settlement for the next log batch and answer at once, so a request costs one round trip (its
   * reservation) and its charge reaches the database with its log row, in one transaction (a node that dies
   * loses both, and the lease gives the reservation back). The answer is what the database will decide when
   * nothing else moves the balances meanwhile: the actual cost, or for a cost beyond the reservation the most the
   * cached balances reach; where the database decides otherwise, the commit puts its charge into the log row
   * (`requestId`). The hold is renewed until the batch commits (a slow or failing batch keeps its money held; a
   * node that dies stops renewing, and the sweep gives it back), so nothing else can reserve it meanwhile.
   */
  function defer(input: SettleInput): SettleResult {
    const user = cached.user(input.userId)
    const token = cached.token(input.tokenId)
    let charged = input.actual
    if (input.actual > input.reserved) {
      const room = Math.min(user?.quota ?? 0, input.tokenLimited ? (token?.remainQuota ?? 0) : Number.MAX_SAFE_INTEGER)
      charged = input.reserved + Math.max(0, Math.min(input.actual - input.reserved, room))
    }
    // the hold stays live (renewed) until its batch commits: given back while the request's charge waits, it would
    // let other requests reserve the same money, and the late charge would find it gone (served, not paid)
    const s = input.capAtAnswer && charged < input.actual ? { ...input, actual: charged } : input
    pending.push(s)
    if (pending.length === 1) onQueued()
    const refund = s.reserved - charged // negative: the extra taken
    const move: Move = { charged, refund, tokenRefund: s.tokenLimited ? refund : 0, count: 1 }
    moves.set(s, move)
    addMove(userMoves, s.userId, move, 1)
    addMove(tokenMoves, s.tokenId, move, 1)
    const result: SettleResult = { charged }
    if (user) {
      user.quota += refund
      user.usedQuota += charged
      user.requestCount += 1
      result.user = { quota: user.quota, usedQuota: user.usedQuota, requestCount: user.requestCount }
    }
    if (token) {
      if (s.tokenLimited) token.remainQuota += refund
      token.usedQuota += charged
      token.accessedTime = Math.max(token.accessedTime, s.now)
      result.token = { remainQuota: token.remainQuota, usedQuota: token.usedQuota, accessedTime: token.accessedTime }
    }
    return result
  }

  /** The queued settlements, handed to a batch (which puts them back with `requeue` if it fails). */
  function takePending(): SettleInput[] {
    const taken = pending
    pending = []
    return taken
  }
  function requeue(settlements: SettleInput[]): void {
    pending = settlements.concat(pending)
  }

  /**
   * The queued settlements in one call, inside the caller's transaction (the log batch's); answers the charges
   * the database decided differently from what `settle` answered (by request id), and `committed` to call once the
   * transaction has committed.
   */
  async function writeSettlements(tx: SQL, settlements: SettleInput[]): Promise<{ differing: Map<string, { answered: number; charged: number }>; committed: () => void }> {
    const differing = new Map<string, { answered: number; charged: number }>()
    if (settlements.length === 0) return { differing, committed: () => {} }
    const column = <T>(f: (s: SettleInput) => T) => settlements.map(f)
    const rows = (await tx`SELECT * FROM tollgate_settle_batch(${column((s) => s.hold ?? null)}::int8[], ${column((s) => s.userId)}::int4[], ${column((s) => s.tokenId)}::int4[],
      ${column((s) => s.tokenLimited)}::bool[], ${column((s) => s.channelId)}::int4[], ${column((s) => s.reserved)}::int8[], ${column((s) => s.actual)}::int8[],
      ${column((s) => s.now)}::int8[])`) as SettleRow[]
    settlements.forEach((s, i) => {
      const charged = Number(rows[i]!.charged)
      const said = moves.get(s)?.charged ?? s.actual
      if (charged !== said && s.requestId !== undefined) differing.set(s.requestId, { answered: said, charged })
    })
    return { differing, committed: () => committed(settlements, rows) }
  }

  /**
   * A batch committed: its moves are in the database now, so they leave the pending sums, and the cached rows of
   * the users and tokens it touched become the balances it left plus whatever was queued since.
   */
  function committed(settlements: SettleInput[], rows: SettleRow[]): void {
    settlements.forEach((s, i) => {
      if (s.hold !== undefined) live.delete(s.hold)
      const move = moves.get(s)
      if (move) {
        addMove(userMoves, s.userId, move, -1)
        addMove(tokenMoves, s.tokenId, move, -1)
      }
      const r = rows[i]!
      const user = cached.user(s.userId)
      const u = userMoves.get(s.userId)
      if (user && r.user_quota !== null) {
        user.quota = Number(r.user_quota) + (u?.refund ?? 0)
        user.usedQuota = Number(r.user_used) + (u?.charged ?? 0)
        user.requestCount = Number(r.user_requests) + (u?.count ?? 0)
      }
      const token = cached.token(s.tokenId)
      const t = tokenMoves.get(s.tokenId)
      if (token && r.token_remain !== null) {
        token.remainQuota = Number(r.token_remain) + (t?.tokenRefund ?? 0)
        token.usedQuota = Number(r.token_used) + (t?.charged ?? 0)
        token.accessedTime = Math.max(token.accessedTime, Number(r.token_accessed))
      }
    })
  }

  /** Push the expiry of this node's live holds (and `also`'s) one lease ahead, in one UPDATE each. */
  async function renew(): Promise<number> {
    const others = also ? await also.renew() : 0
    if (live.size === 0) return others
    const ids = `{${[...live].join(',')}}`
    const done = await client`UPDATE quota_holds SET expires_at = now() + make_interval(secs => ${lease.ttlSeconds}::float8)
      WHERE node_id = ${nodeId} AND id = ANY(${ids}::int8[])`
    return done.count + others
  }

  /** Give back every expired hold of a gone node (any node's, `also`'s too) to the balances; answers how many went. */
  async function sweep(): Promise<number> {
    const [r] = (await client`SELECT tollgate_sweep_holds() AS n`) as { n: number }[]
    return r!.n + (also ? await also.sweep() : 0)
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
    takePending,
    requeue,
    writeSettlements,
    /** settlements waiting for the next batch */
    get pendingSettlements(): number {
      return pending.length
    },
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
