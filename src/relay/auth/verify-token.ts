import type { Repos, TokenRow, UserRow } from '../../db/repos'
import { UserStatus } from '../../db/repos/user-roles'
import { ipMatcher, type IpMatcher } from '../../services/tokens/ip-list'
import { keyBodyOf, keyHash, maskedKey, keyHint } from '../../services/tokens/key'
import { isExhausted, isExpired, mayUseGroup, nowSeconds, TokenStatus } from '../../services/tokens/token-status'
import { describeSources, extractKey, type KeySource } from './extract-key'
import { TokenAuthError } from './token-auth-error'
import type { VerifiedToken } from '../types'

export interface VerifyTokenInput {
  headers: Headers
  /** the client IP (clientIpOf in plugins/request-context, asked once by the relay's key check) */
  clientIp: string
  /** the request URL; only read for `?key=` */
  url?: string
  /** which key carriers besides Bearer this route accepts */
  sources?: readonly KeySource[]
  /** unix seconds, for tests */
  now?: number
}

/** The repositories the key check reads (their caches first). */
type TokenRepos = { repos: Pick<Repos, 'tokens' | 'users'> }

// Parsed allow lists per cached row object; a write replaces the row in the repo cache, so entries age out.
const matchers = new WeakMap<TokenRow, IpMatcher>()

/**
 * Resolve the relay request's API key to its token and user, or throw a TokenAuthError naming the case.
 * Once warm this touches no database and waits on no promise: the token comes from the tokens repo's key-hash
 * cache and the user from the users repo's id cache (both dropped on every write through those repos), read
 * synchronously, so the answer is a plain value. Only a key or user not in memory yet is loaded (then the
 * answer is a promise), and the one-time lazy `status = 3` on a token found past its expiry is written.
 */
export function verifyToken(deps: TokenRepos, input: VerifyTokenInput): VerifiedToken | Promise<VerifiedToken> {
  const raw = extractKey(input)
  if (!raw) throw new TokenAuthError('missing_key', `no API key: send it as ${describeSources(input.sources)}`)
  const body = keyBodyOf(raw)
  if (!body) throw unknownKey(raw, body)
  const hash = keyHash(body)
  const cached = deps.repos.tokens.cachedByKeyHash(hash)
  if (cached === undefined) return deps.repos.tokens.findByKeyHash(hash).then((token) => checkToken(deps, input, raw, body, token))
  return checkToken(deps, input, raw, body, cached ?? undefined)
}

function checkToken(deps: TokenRepos, input: VerifyTokenInput, raw: string, body: string, token: TokenRow | undefined): VerifiedToken | Promise<VerifiedToken> {
  if (!token) throw unknownKey(raw, body)
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
    return deps.repos.tokens.setStatusIf(token.id, TokenStatus.enabled, TokenStatus.expired).then(() => {
      throw expired()
    })
  }
  // Not persisted as status 4: a refund of a reservation can bring quota back, and a stored 4 would stick.
  if (isExhausted(token)) throw exhausted()

  if (!matcherFor(token).allows(input.clientIp)) {
    throw new TokenAuthError('ip_not_allowed', `client IP ${input.clientIp || '(unknown)'} is not allowed for this API key`)
  }

  const user = deps.repos.users.cachedById(token.userId)
  if (user === undefined) return deps.repos.users.findById(token.userId).then((loaded) => checkUser(deps, token, loaded, raw, body))
  return checkUser(deps, token, user, raw, body)
}

function checkUser(deps: TokenRepos, token: TokenRow, user: UserRow | undefined, raw: string, body: string): VerifiedToken {
  if (!user) {
    deps.repos.tokens.forgetUser(token.userId) // owner deleted (tokens cascade): drop the stale cache entries
    throw unknownKey(raw, body)
  }
  if (user.status !== UserStatus.enabled) throw new TokenAuthError('user_disabled', 'the user who owns this API key is disabled')
  // the owner as they are now (the cached row is dropped on every user write, on every node): a group they were
  // moved out of is not theirs to route in or be priced at any more
  if (!mayUseGroup(user, token.group)) {
    throw new TokenAuthError('group_not_allowed', `this API key is in group "${token.group}", which its owner may no longer use: set the key's group to "${user.group}" or ''`)
  }
  return { token, user }
}

const unknownKey = (raw: string, body: string | undefined) => new TokenAuthError('unknown_key', `invalid API key ${showKey(raw, body)}`)

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
