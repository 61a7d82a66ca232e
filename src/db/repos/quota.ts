import type { Db } from '../client'

export interface ReserveResult {
  ok: boolean
  /** balances at the time of a refusal, for the error message */
  userQuota?: number
  tokenRemain?: number
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
}

/**
 * Quota moves of the relay: a reservation before the upstream call and its settlement after. Every move
 * is a conditional UPDATE inside one transaction, so concurrent requests can never drive a user's or a
 * token's balance below zero, and a reservation is taken from both or from neither.
 */
export function createQuotaRepo(db: Db) {
  const sqlite = db.$client
  const takeUser = sqlite.prepare('UPDATE users SET quota = quota - ?1 WHERE id = ?2 AND quota >= ?1')
  const takeToken = sqlite.prepare('UPDATE tokens SET remain_quota = remain_quota - ?1 WHERE id = ?2 AND remain_quota >= ?1')
  const userQuota = sqlite.prepare<{ quota: number }, [number]>('SELECT quota FROM users WHERE id = ?1')
  const tokenRemain = sqlite.prepare<{ remain_quota: number }, [number]>('SELECT remain_quota FROM tokens WHERE id = ?1')
  const settleUser = sqlite.prepare(
    'UPDATE users SET quota = quota + ?1, used_quota = used_quota + ?2, request_count = request_count + 1 WHERE id = ?3',
  )
  const settleToken = sqlite.prepare(
    'UPDATE tokens SET remain_quota = remain_quota + ?1, used_quota = used_quota + ?2, accessed_time = ?3 WHERE id = ?4',
  )
  const settleUnlimitedToken = sqlite.prepare('UPDATE tokens SET used_quota = used_quota + ?1, accessed_time = ?2 WHERE id = ?3')
  const channelUsed = sqlite.prepare('UPDATE channels SET used_quota = used_quota + ?1 WHERE id = ?2')

  const reserveTx = sqlite.transaction((userId: number, tokenId: number, tokenLimited: boolean, amount: number): ReserveResult => {
    if (tokenLimited && takeToken.run(amount, tokenId).changes === 0) {
      return { ok: false, tokenRemain: tokenRemain.get(tokenId)?.remain_quota ?? 0, userQuota: userQuota.get(userId)?.quota ?? 0 }
    }
    if (takeUser.run(amount, userId).changes === 0) {
      // throwing rolls the token's part back too
      throw new Refused({ ok: false, userQuota: userQuota.get(userId)?.quota ?? 0, tokenRemain: tokenLimited ? tokenRemain.get(tokenId)?.remain_quota : undefined })
    }
    return { ok: true }
  })

  const settleTx = sqlite.transaction((s: SettleInput): number => {
    let charged = s.actual
    if (s.actual > s.reserved) {
      // the estimate was short: take the rest only as far as the balances reach, never below zero
      const extra = Math.min(
        s.actual - s.reserved,
        userQuota.get(s.userId)?.quota ?? 0,
        s.tokenLimited ? (tokenRemain.get(s.tokenId)?.remain_quota ?? 0) : Number.MAX_SAFE_INTEGER,
      )
      charged = s.reserved + Math.max(0, extra)
    }
    const refund = s.reserved - charged // negative when an extra charge was taken
    settleUser.run(refund, charged, s.userId)
    if (s.tokenLimited) settleToken.run(refund, charged, s.now, s.tokenId)
    else settleUnlimitedToken.run(charged, s.now, s.tokenId)
    if (charged > 0 && s.channelId > 0) channelUsed.run(charged, s.channelId)
    return charged
  })

  return {
    /** Take `amount` from the token (when limited) and the user, both or neither. */
    reserve(userId: number, tokenId: number, tokenLimited: boolean, amount: number): ReserveResult {
      try {
        return reserveTx(userId, tokenId, tokenLimited, amount)
      } catch (error) {
        if (error instanceof Refused) return error.result
        throw error
      }
    },
    /** Settle a reservation: refund what was not used (or take what was short), count usage; returns the quota charged. */
    settle: (input: SettleInput): number => settleTx(input),
  }
}

class Refused extends Error {
  constructor(readonly result: ReserveResult) {
    super('refused')
  }
}

export type QuotaRepo = ReturnType<typeof createQuotaRepo>
