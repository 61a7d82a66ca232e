import type { TokenRow, UserRow } from '../../db/repos'
import { TokenStatus } from '../tokens/token-status'

/** The token name playground requests are logged under (new-api logs them the same way). */
const PLAYGROUND_TOKEN_NAME = 'playground'

/**
 * The relay caller for a logged-in user's playground request: the user plus a token that exists only in
 * memory. The token has no quota of its own (unlimited) and no model limits, so the user's own balance is
 * what the request is checked against and charged to. Its id is minus the user's id: it never collides with
 * a stored token (ids start at 1), its ledger deltas update no row, and each user's playground gets its own
 * per-key rate-limit bucket instead of sharing one.
 */
export function playgroundCaller(user: UserRow): { token: TokenRow; user: UserRow } {
  const token: TokenRow = {
    id: -user.id,
    userId: user.id,
    keyHash: '',
    keyHint: '',
    name: PLAYGROUND_TOKEN_NAME,
    status: TokenStatus.enabled,
    createdTime: 0,
    accessedTime: 0,
    expiredTime: -1,
    remainQuota: 0,
    unlimitedQuota: true,
    usedQuota: 0,
    modelLimitsEnabled: false,
    modelLimits: '',
    allowIps: '',
    group: user.group,
  }
  return { token, user }
}
