import { GatewayError } from '../../errors'

/** Why a relay request's key was refused; tests and logs read this, clients read the message. */
export type TokenAuthReason =
  | 'missing_key'
  | 'unknown_key'
  | 'token_disabled'
  | 'token_expired'
  | 'token_exhausted'
  | 'ip_not_allowed'
  | 'user_disabled'
  | 'group_not_allowed'

/** The refusals where the key is right but what it asks for is not: 403 with the reason as the code, as in new-api. */
const FORBIDDEN: ReadonlySet<TokenAuthReason> = new Set(['ip_not_allowed', 'group_not_allowed'])

/**
 * Every refusal is 401 `invalid_api_key` except a client IP outside the token's allow list (403 `ip_not_allowed`)
 * and a token group its owner may no longer use (403 `group_not_allowed`): the key is right, the place it is used
 * from or the group it names is not. Messages all start with "unauthorized:" and name the case.
 */
export class TokenAuthError extends GatewayError {
  constructor(
    readonly reason: TokenAuthReason,
    message: string,
  ) {
    const forbidden = FORBIDDEN.has(reason)
    super(forbidden ? 403 : 401, forbidden ? reason : 'invalid_api_key', `unauthorized: ${message}`)
  }
}
