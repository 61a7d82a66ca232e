import type { TokenRow } from '../../db/repos'

/** new-api token statuses. 3 and 4 are set by the gateway, never chosen by a user. */
export const TokenStatus = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const

export const NEVER_EXPIRES = -1

export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

type Limits = Pick<TokenRow, 'expiredTime' | 'remainQuota' | 'unlimitedQuota'>

export const isExpired = (token: Limits, now: number): boolean =>
  token.expiredTime !== NEVER_EXPIRES && token.expiredTime <= now

export const isExhausted = (token: Limits): boolean => !token.unlimitedQuota && token.remainQuota <= 0

/**
 * The group a token routes in. '' means "the owner's group", resolved at use time so it follows the
 * user when an admin moves them; any other value was checked when the token was written.
 */
export const effectiveGroup = (token: Pick<TokenRow, 'group'>, user: { group: string }): string =>
  token.group || user.group
