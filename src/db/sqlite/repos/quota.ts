import type { Db } from '../client'
import type { ElsewhereInput, ReserveResult, SettleInput, SettleResult } from '../../repos/quota'
import type { TokenRow, UserRow } from '../../repos/rows'
import { createDeltaWriter, type LedgerDeltas } from './ledger-write'

/** Where the ledger reads live balances: the repos' cached rows, loaded (after a flush) on a miss. */
export interface BalanceRows {
  user(id: number): UserRow | undefined
  token(id: number): TokenRow | undefined
}

interface UserDelta {
  quota: number
  usedQuota: number
  requestCount: number
}
interface TokenDelta {
  remainQuota: number
  usedQuota: number
  accessedTime: number
}
/** Reservations of requests still running, on one balance: `held` in all, `inDb` of it already written. */
interface Hold {
  held: number
  inDb: number
}

/**
 * The relay's quota moves on SQLite (the QuotaRepo interface wraps it: sqlite/repos/index.ts), decided in memory and written behind. A reservation and its settlement change
 * the cached user and token rows in place (relay auth reads those) and add to a pending delta per row; the
 * deltas reach SQLite in one transaction with the next batch of log rows (`write`), or at once (`flush`)
 * before any other repo reads or writes these tables. So the request path runs no SQL, and the database
 * plus the pending deltas always equals the cached rows.
 *
 * A reservation is a hold on the cached rows only: it reaches SQLite with its request's settlement (as the
 * charge), so a crash never leaves the balance lower than the log rows say (before, a batch wrote the holds of
 * requests still running, and a kill -9 kept them charged with no row). Only `flush`, which runs before another
 * repo reads or writes these tables (a balance edit, a redemption), writes the holds too, so that what it reads
 * is the balance the relay sees; their settlements then write the difference.
 *
 * One process owns the database: balances are checked here, not by conditional UPDATEs, so a second
 * gateway on the same file could overspend. Being synchronous JavaScript, concurrent requests in this
 * process can never drive a balance below zero, and a reservation is taken from both or from neither.
 */
export function createQuotaLedger(db: Db, rows: BalanceRows) {
  const sqlite = db.$client
  const users = new Map<number, UserDelta>()
  const tokens = new Map<number, TokenDelta>()
  const channels = new Map<number, number>()
  const userHolds = new Map<number, Hold>()
  const tokenHolds = new Map<number, Hold>()
  let onDirty: () => void = () => {}

  const writeDeltas = createDeltaWriter(sqlite)

  const dirty = () => users.size + tokens.size + channels.size > 0
  function markDirty(): void {
    if (!dirty()) onDirty()
  }

  // The row is read first: reading may flush (on a cache miss), which must not see this move's delta.
  // `quota` goes to the database, `cachedQuota` to the cached row (they differ by the holds a settlement ends).
  function moveUser(id: number, quota: number, cachedQuota: number, usedQuota: number, requestCount: number): UserRow | undefined {
    const row = rows.user(id)
    markDirty()
    const d = users.get(id) ?? { quota: 0, usedQuota: 0, requestCount: 0 }
    d.quota += quota
    d.usedQuota += usedQuota
    d.requestCount += requestCount
    users.set(id, d)
    if (row) {
      row.quota += cachedQuota
      row.usedQuota += usedQuota
      row.requestCount += requestCount
    }
    return row
  }

  function moveToken(id: number, remainQuota: number, cachedRemain: number, usedQuota: number, accessedTime: number): TokenRow | undefined {
    const row = rows.token(id)
    markDirty()
    const d = tokens.get(id) ?? { remainQuota: 0, usedQuota: 0, accessedTime: 0 }
    d.remainQuota += remainQuota
    d.usedQuota += usedQuota
    d.accessedTime = Math.max(d.accessedTime, accessedTime)
    tokens.set(id, d)
    if (row) {
      row.remainQuota += cachedRemain
      row.usedQuota += usedQuota
      row.accessedTime = Math.max(row.accessedTime, accessedTime)
    }
    return row
  }

  function hold(holds: Map<number, Hold>, id: number, amount: number): void {
    const h = holds.get(id)
    if (h) h.held += amount
    else holds.set(id, { held: amount, inDb: 0 })
  }

  /** End `amount` of holds; returns how much of what the database holds is no longer backed (to give back there). */
  function release(holds: Map<number, Hold>, id: number, amount: number): number {
    const h = holds.get(id)
    if (!h) return 0
    h.held -= amount
    const freed = Math.max(0, h.inDb - Math.max(0, h.held))
    h.inDb -= freed
    if (h.held <= 0 && h.inDb <= 0) holds.delete(id)
    return freed
  }

  /** The holds not yet in the database, as deltas (flush only: see above). */
  function holdsToDeltas(): void {
    for (const [id, h] of userHolds) {
      if (h.held <= h.inDb) continue
      const d = users.get(id) ?? { quota: 0, usedQuota: 0, requestCount: 0 }
      d.quota -= h.held - h.inDb
      users.set(id, d)
      h.inDb = h.held
    }
    for (const [id, h] of tokenHolds) {
      if (h.held <= h.inDb) continue
      const d = tokens.get(id) ?? { remainQuota: 0, usedQuota: 0, accessedTime: 0 }
      d.remainQuota -= h.held - h.inDb
      tokens.set(id, d)
      h.inDb = h.held
    }
  }
  const unwrittenHolds = () => {
    for (const h of userHolds.values()) if (h.held > h.inDb) return true
    for (const h of tokenHolds.values()) if (h.held > h.inDb) return true
    return false
  }

  function snapshot(): LedgerDeltas {
    return {
      users: [...users].map(([id, d]) => [id, d.quota, d.usedQuota, d.requestCount]),
      tokens: [...tokens].map(([id, d]) => [id, d.remainQuota, d.usedQuota, d.accessedTime]),
      channels: [...channels],
    }
  }
  /** The pending deltas as UPDATEs, in the caller's transaction; forgotten only once they ran. */
  function writePending(): void {
    writeDeltas(snapshot())
  }
  function clearPending(): void {
    users.clear()
    tokens.clear()
    channels.clear()
  }
  const flushTx = sqlite.transaction(writePending)

  return {
    /** Take `amount` from the token (when limited) and the user, both or neither. */
    reserve(userId: number, tokenId: number, tokenLimited: boolean, amount: number): ReserveResult {
      const user = rows.user(userId)
      const token = tokenLimited ? rows.token(tokenId) : undefined
      const userQuota = user?.quota ?? 0
      const tokenRemain = tokenLimited ? (token?.remainQuota ?? 0) : undefined
      if (userQuota < amount || (tokenRemain !== undefined && tokenRemain < amount)) return { ok: false, userQuota, tokenRemain }
      // a hold on the cached rows only: nothing to write until the request settles
      if (user) user.quota -= amount
      hold(userHolds, userId, amount)
      if (tokenLimited) {
        if (token) token.remainQuota -= amount
        hold(tokenHolds, tokenId, amount)
      }
      return { ok: true, userQuota: user?.quota, tokenRemain: tokenLimited ? token?.remainQuota : undefined }
    },

    /** Hold `amount` of a limited key for a request a plan pays (the user's balance untouched). */
    holdToken(tokenId: number, amount: number): { ok: boolean; tokenRemain: number } {
      const token = rows.token(tokenId)
      const tokenRemain = token?.remainQuota ?? 0
      if (tokenRemain < amount) return { ok: false, tokenRemain }
      if (token) token.remainQuota -= amount
      hold(tokenHolds, tokenId, amount)
      return { ok: true, tokenRemain: tokenRemain - amount }
    },

    /** A request a plan paid: its charge counted as used by the user, the key and the channel, taken from a limited key. */
    settleElsewhere(s: ElsewhereInput): void {
      const freed = s.tokenHeld > 0 ? release(tokenHolds, s.tokenId, s.tokenHeld) : 0
      // a limited key pays the charge too, as far as it reaches (its hold first)
      const taken = s.tokenLimited ? Math.min(s.charged, s.tokenHeld + Math.max(0, rows.token(s.tokenId)?.remainQuota ?? 0)) : 0
      moveUser(s.userId, 0, 0, s.charged, 0)
      moveToken(s.tokenId, s.tokenLimited ? freed - taken : 0, s.tokenLimited ? s.tokenHeld - taken : 0, s.charged, s.now)
      if (s.charged > 0 && s.channelId > 0) {
        markDirty()
        channels.set(s.channelId, (channels.get(s.channelId) ?? 0) + s.charged)
      }
    },

    /** Settle a reservation: refund what was not used (or take what was short), count usage; returns the quota charged and the new balances. */
    settle(s: SettleInput): SettleResult {
      let charged = s.actual
      if (s.actual > s.reserved) {
        // the estimate was short: take the rest only as far as the balances reach, never below zero
        const tokenRemain = s.tokenLimited ? (rows.token(s.tokenId)?.remainQuota ?? 0) : Number.MAX_SAFE_INTEGER
        const extra = Math.min(s.actual - s.reserved, rows.user(s.userId)?.quota ?? 0, tokenRemain)
        charged = s.reserved + Math.max(0, extra)
      }
      const refund = s.reserved - charged // negative when an extra charge was taken
      // the database gets the charge, plus back whatever of the hold a flush had written there
      const user = moveUser(s.userId, release(userHolds, s.userId, s.reserved) - charged, refund, charged, 1)
      const tokenFreed = s.tokenLimited ? release(tokenHolds, s.tokenId, s.reserved) : 0
      const token = moveToken(s.tokenId, s.tokenLimited ? tokenFreed - charged : 0, s.tokenLimited ? refund : 0, charged, s.now)
      if (charged > 0 && s.channelId > 0) {
        markDirty()
        channels.set(s.channelId, (channels.get(s.channelId) ?? 0) + charged)
      }
      return {
        charged,
        user: user && { quota: user.quota, usedQuota: user.usedQuota, requestCount: user.requestCount },
        token: token && { remainQuota: token.remainQuota, usedQuota: token.usedQuota, accessedTime: token.accessedTime },
      }
    },

    /** True while deltas wait to be written. */
    get dirty(): boolean {
      return dirty()
    },
    /** Called when the first delta after a write arrives, so a writer can schedule the next batch. */
    onDirty(callback: () => void): void {
      onDirty = callback
    },
    /** Write the pending deltas inside a transaction the caller holds (the log batch); call `written` after it commits. */
    writePending,
    written: clearPending,
    /** Hand the pending deltas over (to the writer thread, which owns them from here), or undefined when there are none. */
    takePending(): LedgerDeltas | undefined {
      if (!dirty()) return undefined
      const deltas = snapshot()
      clearPending()
      return deltas
    },
    /**
     * Write the pending deltas now, in their own transaction, with the holds of running requests: a repo about to
     * read or write these rows sees the balances the relay sees. A no-op when there is nothing to write.
     */
    flush(): void {
      if (!dirty() && !unwrittenHolds()) return
      holdsToDeltas()
      flushTx()
      clearPending()
    },
  }
}

export type QuotaLedger = ReturnType<typeof createQuotaLedger>
