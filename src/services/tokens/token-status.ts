import type { TokenRow, UserRow } from '../../db/repos'
import { Role } from '../../db/repos/user-roles'

/** new-api token statuses. 3 and 4 are set by the gateway, never chosen by a user. */
export const TokenStatus = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const

export const NEVER_EXPIRES = -1

export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

type Limits = Pick<TokenRow, 'expiredTime' | 'remainQuota' | 'unlimitedQuota'>

export const isExpired = (token: Limits, now: number): boolean =>
  token.expiredTime !== NEVER_EXPIRES && token.expiredTime <= now

export const isExhausted = (token: Limits): boolean => !token.unlimitedQuota && token.remainQuota <= 0

/**
 * Whether a user may put a token in `group`, read on every relay request as well as on writes: '' (their group,
 * whatever it is then) and their own group; any group for admins and root. A token named for a group its owner has
 * since been moved out of (or lost the admin role for) stops there: it does not keep that group's models and prices.
 */
export const mayUseGroup = (user: Pick<UserRow, 'group' | 'role'>, group: string): boolean =>
  group === '' || group === user.group || user.role >= Role.admin
