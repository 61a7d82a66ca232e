import type { Db } from '../client'

export interface ReserveResult {
  ok: boolean
  /** balances after the reservation, or at the time of a refusal (for the error message) */
  userQuota?: number
  tokenRemain?: number
}

/** The balances a settlement left, so the repos' cached rows can be brought up to date without a read. */
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
}

/**
 * Quota moves of the relay: a reservation before the upstream call and its settlement after. Every move
 * is a conditional UPDATE inside one transaction, so concurrent requests can never drive a user's or a
 * token's balance below zero, and a reservation is taken from both or from neither.
 */
export function createQuotaRepo(db: Db) {
  const sqlite = db.$client
  const takeUser = sqlite.prepare<{ quota: number }, [number, number]>('UPDATE users SET quota = quota - ?1 WHERE id = ?2 AND quota >= ?1 RETURNING quota')
  const takeToken = sqlite.prepare<{ remain_quota: number }, [number, number]>(
    'UPDATE tokens SET remain_quota = remain_quota - ?1 WHERE id = ?2 AND remain_quota >= ?1 RETURNING remain_quota',
  )
  const userQuota = sqlite.prepare<{ quota: number }, [number]>('SELECT quota FROM users WHERE id = ?1')
  const tokenRemain = sqlite.prepare<{ remain_quota: number }, [number]>('SELECT remain_quota FROM tokens WHERE id = ?1')
  const settleUser = sqlite.prepare<{ quota: number; used_quota: number; request_count: number }, [number, number, number]>(
    'UPDATE users SET quota = quota + ?1, used_quota = used_quota + ?2, request_count = request_count + 1 WHERE id = ?3 RETURNING quota, used_quota, request_count',
  )
  const settleToken = sqlite.prepare<{ remain_quota: number; used_quota: number; accessed_time: number }, [number, number, number, number]>(
    'UPDATE tokens SET remain_quota = remain_quota + ?1, used_quota = used_quota + ?2, accessed_time = ?3 WHERE id = ?4 RETURNING remain_quota, used_quota, accessed_time',
  )
  const settleUnlimitedToken = sqlite.prepare<{ remain_quota: number; used_quota: number; accessed_time: number }, [number, number, number]>(
    'UPDATE tokens SET used_quota = used_quota + ?1, accessed_time = ?2 WHERE id = ?3 RETURNING remain_quota, used_quota, accessed_time',
  )
  const channelUsed = sqlite.prepare('UPDATE channels SET used_quota = used_quota + ?1 WHERE id = ?2')

  const reserveTx = sqlite.transaction((userId: number, tokenId: number, tokenLimited: boolean, amount: number): ReserveResult => {
    const token = tokenLimited ? takeToken.get(amount, tokenId) : undefined
    if (tokenLimited && !token) {
      return { ok: false, tokenRemain: tokenRemain.get(tokenId)?.remain_quota ?? 0, userQuota: userQuota.get(userId)?.quota ?? 0 }
    }
    const user = takeUser.get(amount, userId)
    if (!user) {
      // throwing rolls the token's part back too
      throw new Refused({ ok: false, userQuota: userQuota.get(userId)?.quota ?? 0, tokenRemain: tokenLimited ? tokenRemain.get(tokenId)?.remain_quota : undefined })
    }
    return { ok: true, userQuota: user.quota, tokenRemain: token?.remain_quota }
  })

  const settleTx = sqlite.transaction((s: SettleInput): SettleResult => {
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
    const user = settleUser.get(refund, charged, s.userId)
    const token = s.tokenLimited ? settleToken.get(refund, charged, s.now, s.tokenId) : settleUnlimitedToken.get(charged, s.now, s.tokenId)
    if (charged > 0 && s.channelId > 0) channelUsed.run(charged, s.channelId)
    return {
      charged,
      user: user ? { quota: user.quota, usedQuota: user.used_quota, requestCount: user.request_count } : undefined,
      token: token ? { remainQuota: token.remain_quota, usedQuota: token.used_quota, accessedTime: token.accessed_time } : undefined,
    }
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
    /** Settle a reservation: refund what was not used (or take what was short), count usage; returns the quota charged and the new balances. */
    settle: (input: SettleInput): SettleResult => settleTx(input),
  }
}

class Refused extends Error {
  constructor(readonly result: ReserveResult) {
    super('refused')
  }
}

export type QuotaRepo = ReturnType<typeof createQuotaRepo>
