import { RateLimitError } from '../errors'
import type { LimitDenial, LoginResult } from './types'

/** The 429 a refused request gets: the words the relay has always used. */
export function limitError(denial: LimitDenial): RateLimitError {
  const { label, limit } = denial
  if (denial.kind === 'concurrency') return new RateLimitError(`rate limited: this ${label} already has ${denial.inFlight} requests in flight (limit ${limit})`, 1)
  if (denial.kind === 'rpm') return new RateLimitError(`rate limited: this ${label} may send ${limit} requests per minute`, denial.retryAfter)
  return new RateLimitError(`rate limited: this ${label} may use ${limit} tokens per minute`, denial.retryAfter)
}

/** The 429 of the login limiter (`modules/auth/login.ts`), as it has always read. */
export function loginError(refused: Extract<LoginResult, { ok: false }>): RateLimitError {
  return new RateLimitError('too many failed logins: try again later', refused.retryAfter)
}
