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

/**
 * Every refusal is 401 `invalid_api_key` except a client IP outside the token's allow list, which is
 * 403 `ip_not_allowed` as in new-api: the key is right, the place it is used from is not.
 * Messages all start with "unauthorized:" and name the case.
 */
export class TokenAuthError extends GatewayError {
  constructor(
    readonly reason: TokenAuthReason,
    message: string,
  ) {
    const ip = reason === 'ip_not_allowed'
    super(ip ? 403 : 401, ip ? 'ip_not_allowed' : 'invalid_api_key', `unauthorized: ${message}`)
  }
}
