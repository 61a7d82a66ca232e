import * as oauth from 'oauth4webapi'
import type { HttpOptions } from './http'
import { oauthError } from './errors'

const WELL_KNOWN = '/.well-known/openid-configuration'
const CACHE_MS = 10 * 60_000
const MAX_ENTRIES = 8
const cache = new Map<string, { as: oauth.AuthorizationServer; at: number }>()

/**
 * The OpenID Provider's metadata from its discovery document (OpenID Connect Discovery 1.0), checked by
 * oauth4webapi (the issuer it names must be the one asked for); kept 10 minutes, so a sign-in does not fetch it.
 * `wellKnown`: the document's URL, or the issuer itself.
 */
export async function discover(wellKnown: string, http: HttpOptions): Promise<oauth.AuthorizationServer> {
  const hit = cache.get(wellKnown)
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.as
  const issuer = new URL(wellKnown.endsWith(WELL_KNOWN) ? wellKnown.slice(0, -WELL_KNOWN.length) : wellKnown)
  let as: oauth.AuthorizationServer
  try {
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...http, algorithm: 'oidc' }))
  } catch (error) {
    throw oauthError(502, 'oauth_discovery_failed', `the OIDC discovery document at ${issuer.href} could not be used: ${(error as Error).message}`)
  }
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!)
  cache.set(wellKnown, { as, at: Date.now() })
  return as
}
