import * as oauth from 'oauth4webapi'
import type { Outbound } from '../../outbound/fetch'

const TIMEOUT_MS = 15_000

/** oauth4webapi's request options for every call of a flow (GET and POST alike). */
export interface HttpOptions {
  [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<string, unknown>) => Promise<Response>
  signal: () => AbortSignal
  [oauth.allowInsecureRequests]?: boolean
}

/** oauth4webapi's requests, made through the outbound guard (PROVIDER_ENDPOINTS, address checks, no redirects), with a deadline. */
export function httpOptions(deps: { outbound: Pick<Outbound, 'fetch'> }, insecure: boolean): HttpOptions {
  return {
    [oauth.customFetch]: (url, init) => deps.outbound.fetch(url, init as RequestInit),
    signal: () => AbortSignal.timeout(TIMEOUT_MS),
    // an issuer the operator configured on http (a test's provider on loopback): allowed, as they chose it
    ...(insecure ? { [oauth.allowInsecureRequests]: true } : {}),
  }
}

