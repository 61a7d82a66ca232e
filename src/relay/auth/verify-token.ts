import type { TokenRow, UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { UserStatus } from '../../plugins/session'
import { ipMatcher, type IpMatcher } from '../../services/tokens/ip-list'
import { keyBodyOf, keyHash, maskedKey, keyHint } from '../../services/tokens/key'
import { isExhausted, isExpired, nowSeconds, TokenStatus } from '../../services/tokens/token-status'
import { describeSources, extractKey, type KeySource } from './extract-key'
import { TokenAuthError } from './token-auth-error'

export interface VerifyTokenInput {
  headers: Headers
  /** the client IP (clientIpOf in plugins/request-context, asked once by the relay derive) */
  clientIp: string
  /** the request URL; only read for `?key=` */
  url?: string
  /** which key carriers besides Bearer this route accepts */
  sources?: readonly KeySource[]
  /** unix seconds, for tests */
  now?: number
}

export interface VerifiedToken {
  token: TokenRow
  user: UserRow
}

// Parsed allow lists per cached row object; a write replaces the row in the repo cache, so entries age out.
const matchers = new WeakMap<TokenRow, IpMatcher>()

/**
 * Resolve the relay request's API key to its token and user, or throw a TokenAuthError naming the case.
 * Once warm this touches no database: the token comes from the tokens repo's key-hash cache and the user
 * from the users repo's id cache, both dropped on every write through those repos. The only write is the
 * one-time lazy `status = 3` on a token found past its expiry.
 */
export function verifyToken(deps: Pick<AppDeps, 'repos'>, input: VerifyTokenInput): VerifiedToken {
  const raw = extractKey(input)
  if (!raw) throw new TokenAuthError('missing_key', `no API key: send it as ${describeSources(input.sources)}`)
  const body = keyBodyOf(raw)
  const token = body ? deps.repos.tokens.findByKeyHash(keyHash(body)) : undefined
  if (!token || !body) throw new TokenAuthError('unknown_key', `invalid API key ${showKey(raw, body)}`)

  const now = input.now ?? nowSeconds()
  switch (token.status) {
    case TokenStatus.enabled:
      break
    case TokenStatus.expired:
      throw expired()
    case TokenStatus.exhausted:
      throw exhausted()
    default:
      throw new TokenAuthError('token_disabled', 'this API key is disabled')
  }
  if (isExpired(token, now)) {
    deps.repos.tokens.setStatusIf(token.id, TokenStatus.enabled, TokenStatus.expired)
    throw expired()
  }
  // Not persisted as status 4: a refund of a reservation can bring quota back, and a stored 4 would stick.
  if (isExhausted(token)) throw exhausted()

  if (!matcherFor(token).allows(input.clientIp)) {
    throw new TokenAuthError('ip_not_allowed', `client IP ${input.clientIp || '(unknown)'} is not allowed for this API key`)
  }

  const user = deps.repos.users.findById(token.userId)
  if (!user) {
    deps.repos.tokens.forgetUser(token.userId) // owner deleted (tokens cascade): drop the stale cache entries
    throw new TokenAuthError('unknown_key', `invalid API key ${showKey(raw, body)}`)
  }
  if (user.status !== UserStatus.enabled) throw new TokenAuthError('user_disabled', 'the user who owns this API key is disabled')
  return { token, user }
}

function matcherFor(token: TokenRow): IpMatcher {
  let matcher = matchers.get(token)
  if (!matcher) matchers.set(token, (matcher = ipMatcher(token.allowIps)))
  return matcher
}

const expired = () => new TokenAuthError('token_expired', 'this API key has expired')
const exhausted = () => new TokenAuthError('token_exhausted', 'this API key has used up its quota')

/** Echo a presented key only masked, so error messages and logs never carry it whole. */
function showKey(raw: string, body: string | undefined): string {
  return body ? maskedKey(keyHint(body)) : raw.length > 8 ? `${raw.slice(0, 3)}…${raw.slice(-4)}` : '(malformed)'
}
