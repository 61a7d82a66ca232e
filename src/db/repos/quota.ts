export interface ReserveResult {
  ok: boolean
  /** balances after the reservation, or at the time of a refusal (for the error message) */
  userQuota?: number
  tokenRemain?: number
  /**
   * The reservation's hold, where the database records one (PostgreSQL: a row its node renews, given back by a
   * sweep if the node dies); hand it to `settle`. SQLite's ledger holds reservations in memory and gives none.
   */
  hold?: number
}

/** The balances a settlement left. */
export interface SettleResult {
  /** the quota charged */
  charged: number
  user?: { quota: number; usedQuota: number; requestCount: number }
  token?: { remainQuota: number; usedQuota: number; accessedTime: number }
}

export interface SettleInput {
  userId: number
  tokenId: number
  /** true when the token has a balance of its own (not unlimited) */
  tokenLimited: boolean
  channelId: number
  reserved: number
  /** what the request actually cost; may exceed `reserved` (then only what the balances hold is taken) */
  actual: number
  /** unix seconds, for the token's accessed_time */
  now: number
  /**
   * `ReserveResult.hold`: the settlement ends that hold. When a sweep already gave it back (its node stopped
   * renewing it), `reserved` is no longer in the balances and the actual cost is charged only as far as they
   * reach. Undefined: the reservation is in the balances as `reserved` says (SQLite ignores it).
   */
  hold?: number
  /**
   * The request's id, as its log row carries it: a dialect that writes the settlement with the log batch (PostgreSQL)
   * puts the charge the database made into that row when it differs from the one answered (a cost beyond the
   * reservation, capped by balances that moved meanwhile).
   */
  requestId?: string
  /**
   * Another source pays what this settlement leaves: a dialect that decides later (PostgreSQL's batch) takes at most
   * the charge it answers now, never more, so the two never take the same part twice.
   */
  capAtAnswer?: boolean
}

/** A request another source (a held plan) paid: what `QuotaRepo.settleElsewhere` counts. */
export interface ElsewhereInput {
  userId: number
  tokenId: number
  /** the limited key's hold from `holdToken` (0: none); it ends here */
  tokenHeld: number
  tokenLimited: boolean
  channelId: number
  /** what the other source charged: added to the user's, the key's and the channel's used quota, taken from a limited key (never below zero), not from the user's balance */
  charged: number
  now: number
}

/**
 * The relay's quota moves: a reservation before the first upstream attempt, its settlement when the request
 * is over. Both are async because the decision belongs to the database whenever more than one process can
 * spend the same balance: a PostgreSQL implementation must take a reservation with a conditional UPDATE
 * (`… SET quota = quota - $n WHERE id = $id AND quota >= $n`, user and token in one transaction, both or
 * neither) and settle with additive UPDATEs, never decide from a node's cached rows, or N nodes would each
 * spend the whole balance. SQLite has one owning process, so its ledger decides synchronously on the cached
 * rows and writes behind (sqlite/repos/quota.ts); it answers with an already-resolved promise.
 */
export interface QuotaRepo {
  /** Take `amount` from the token (when limited) and the user, both or neither; never below zero. */
  reserve(userId: number, tokenId: number, tokenLimited: boolean, amount: number): Promise<ReserveResult>
  /**
   * Take `amount` more for a reservation that is still running (a realtime session), both or neither, into its hold
   * (`ReserveResult.hold`), so its one settlement ends all of it with `reserved` the sum. Refused when the balances
   * cannot pay, or when the hold is gone (a sweep gave it back).
   */
  topUp(hold: number | undefined, userId: number, tokenId: number, tokenLimited: boolean, amount: number): Promise<ReserveResult>
  /** Hold `amount` of a limited key's remaining quota for a request another source (a plan) pays; no hold when it has less. */
  holdToken(tokenId: number, amount: number): Promise<{ ok: boolean; tokenRemain: number }>
  /**
   * End a `holdToken` (or count a request an unlimited key sent) that another source paid: see ElsewhereInput. Written
   * at once; the request itself is counted by the `settle` that follows it.
   */
  settleElsewhere(input: ElsewhereInput): Promise<void>
  /** Refund what was not used (or take what was short, only as far as the balances reach) and count usage; answers the charge and the new balances. */
  settle(input: SettleInput): Promise<SettleResult>
  /**
   * `callback` runs when the first move after a write is left pending (a dialect that writes behind: SQLite), so
   * the log writer can commit it with its next batch (`Repos.commitMetering`). A dialect that writes every move at
   * once never calls it.
   */
  onDirty(callback: () => void): void
  /**
   * True while settlements wait for the next log batch (a dialect that writes them with it: PostgreSQL). Their
   * refunds are not in the database yet, so a refused reservation commits that batch and asks once more.
   */
  hasPending(): boolean
}
