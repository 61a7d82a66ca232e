// Why a call to an upstream failed, as a stable code the console words in its reader's language.
import { OutboundRefused } from '../../outbound/fetch'

export type UpstreamFailureCode =
  | 'upstream_unreachable'
  | 'upstream_timeout'
  | 'upstream_refused_address'
  | 'upstream_auth'
  | 'upstream_not_found'
  | 'upstream_rate_limited'
  | 'upstream_status'
  | 'upstream_bad_answer'
  | 'not_testable'

/** The code for an answer with this status (0: no answer). */
export function failureCode(status: number): UpstreamFailureCode {
  if (status === 401 || status === 403) return 'upstream_auth'
  if (status === 404) return 'upstream_not_found'
  if (status === 429) return 'upstream_rate_limited'
  return status === 0 ? 'upstream_unreachable' : 'upstream_status'
}

/** A URL as shown to an admin: scheme, host and path; the query (where some providers take the key) left out. */
export function shownUrl(input: string): string {
  try {
    const url = new URL(input)
    return `${url.origin}${url.pathname}`
  } catch {
    return input.split('?')[0]!.slice(0, 300)
  }
}

/**
 * A thrown fetch (no answer) in plain words: the timeout, the guard's refusal, or the socket's error code with the
 * host, never the runtime's own phrasing ("Is the computer able to access the url?").
 */
export function fetchFailure(error: unknown, url: string | undefined, timeoutMs: number): { code: UpstreamFailureCode; message: string } {
  const e = error as { name?: string; message?: string; code?: unknown }
  if (e?.name === 'TimeoutError') return { code: 'upstream_timeout', message: `no answer within ${timeoutMs / 1000} s` }
  if (error instanceof OutboundRefused) return { code: 'upstream_refused_address', message: e.message ?? 'upstream address refused' }
  // a socket's error (ECONNREFUSED, ENOTFOUND …): its code and the host; anything else (a refused token endpoint,
  // a redirect not followed) already says what happened
  if (typeof e?.code === 'string' && /^E[A-Z_]+$/.test(e.code)) return { code: 'upstream_unreachable', message: `cannot connect to ${hostOf(url) || 'the upstream'} (${e.code})` }
  return { code: 'upstream_unreachable', message: e?.message || 'cannot reach the upstream' }
}

function hostOf(url: string | undefined): string {
  if (!url) return ''
  try {
    return new URL(url).host
  } catch {
    return ''
  }
}
