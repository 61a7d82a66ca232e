import { isHttpsRequest } from '../../plugins/request-context'
import type { TrustProxy } from '../../net/trusted-proxies'

/** Who the passkeys belong to: the RP ID (a host name) and the origin the browser must report. */
export interface RelyingParty {
  rpID: string
  origin: string
  name: string
}

/**
 * From ServerAddress when root set one (the public address users sign in at), else from the request's own Host
 * and scheme. A passkey is bound to its RP ID: changing ServerAddress's host orphans the passkeys made before.
 */
export function relyingParty(input: {
  serverAddress: string
  systemName: string
  request: Request
  server: Parameters<typeof isHttpsRequest>[1]
  trustProxy: TrustProxy
}): RelyingParty {
  if (input.serverAddress) {
    const url = new URL(input.serverAddress)
    return { rpID: url.hostname, origin: url.origin, name: input.systemName }
  }
  const host = input.request.headers.get('host') ?? new URL(input.request.url).host
  const scheme = isHttpsRequest(input.request, input.server, input.trustProxy) ? 'https' : 'http'
  const origin = new URL(`${scheme}://${host}`).origin
  return { rpID: new URL(origin).hostname, origin, name: input.systemName }
}
