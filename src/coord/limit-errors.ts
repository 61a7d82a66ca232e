import { RateLimitError } from '../errors'
import type { LimitDenial, LoginResult } from './types'

/** The 429 a refused request gets: the words the relay has always used. */
export function limitError(denial: LimitDenial): RateLimitError {
  const { label, limit } = denial
  if (denial.kind === 'concurrency') return new RateLimitError(`rate limited: this ${label} already has ${denial.inFlight} requests in flight (limit ${limit})`, 1)
  if (denial.kind === 'rpm') return new RateLimitError(`rate limited: this ${label} may send ${limit} requests per minute`, denial.retryAfter)
  return new RateLimitError(`rate limited: this ${label} may use ${limit} tokens per minute`, denial.retryAfter)
}

/** A wait in words: "40 seconds", "1 minute", "15 minutes" (rounded up). */
export function waitInWords(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds))
  if (whole < 60) return whole === 1 ? '1 second' : `${whole} seconds`
  const minutes = Math.ceil(whole / 60)
  return minutes === 1 ? '1 minute' : `${minutes} minutes`
}

/** The 429 of the login limiter (`modules/auth/login.ts`): the wait in the message, the header and the data. */
export function loginError(refused: Extract<LoginResult, { ok: false }>): RateLimitError {
  return new RateLimitError(`too many failed logins: try again in ${waitInWords(refused.retryAfter)}`, refused.retryAfter, 'login_rate_limited')
}
