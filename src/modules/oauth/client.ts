import * as oauth from 'oauth4webapi'
import type { OptionStore } from '../../options/store'
import { openSecretOption } from '../../options/secret-options'
import type { Outbound } from '../../outbound/fetch'
import { oauthError } from './errors'
import { discover } from './discovery'
import { httpOptions, type HttpOptions } from './http'
import { FIXED_PROVIDERS, type FixedProvider, type OAuthProviderName, optionsOf } from './providers'

/** What the flow needs of the app: the options, the crypto secret (sealed client secrets), the outbound guard. */
export interface OAuthDeps {
  options: OptionStore
  cryptoSecret: string
  outbound: Pick<Outbound, 'fetch'>
}

/** One provider, ready for oauth4webapi: its metadata, our client, how we authenticate, what we ask for. */
export interface ProviderClient {
  /** the route's name: a built-in provider, or a custom provider's slug */
  name: string
  as: oauth.AuthorizationServer
  client: oauth.Client
  auth: oauth.ClientAuth
  scope: string
  /** an OpenID Provider: nonce, ID token and userinfo */
  oidc: boolean
  /** the account, read with the access token (plain OAuth providers) */
  readProfile?: FixedProvider['profile']
  http: HttpOptions
}

/** The provider's client when it is switched on and configured, else 403 / 400 naming what is missing. */
export async function providerClient(deps: OAuthDeps, name: OAuthProviderName): Promise<ProviderClient> {
  const names = optionsOf(name)
  if (!deps.options.get<boolean>(names.enabled)) throw oauthError(403, 'oauth_disabled', `sign-in with ${name} is not enabled on this instance`)
  const clientId = deps.options.get<string>(names.clientId)
  const secret = await openSecretOption(deps.cryptoSecret, deps.options, names.clientSecret).catch(() => '')
  if (!clientId || !secret) throw oauthError(400, 'oauth_not_configured', `sign-in with ${name} has no client id or secret yet: root sets them in Settings`)
  const client: oauth.Client = { client_id: clientId }
  if (name === 'oidc') {
    const wellKnown = deps.options.get<string>('oidc.well_known')
    if (!wellKnown) throw oauthError(400, 'oauth_not_configured', 'OIDC has no discovery document (oidc.well_known) yet')
    const insecure = new URL(wellKnown).protocol === 'http:'
    const http = httpOptions(deps, insecure)
    const as = await discover(wellKnown, http)
    const methods = as.token_endpoint_auth_methods_supported
    const auth = !methods || methods.includes('client_secret_basic') ? oauth.ClientSecretBasic(secret) : oauth.ClientSecretPost(secret)
    return { name, as, client, auth, scope: 'openid profile email', oidc: true, http }
  }
  const fixed = FIXED_PROVIDERS[name]
  const as: oauth.AuthorizationServer = {
    issuer: new URL(fixed.authorizationEndpoint).origin,
    authorization_endpoint: fixed.authorizationEndpoint,
    token_endpoint: fixed.tokenEndpoint,
  }
  const auth = fixed.clientAuth === 'basic' ? oauth.ClientSecretBasic(secret) : oauth.ClientSecretPost(secret)
  return { name, as, client, auth, scope: fixed.scope, oidc: false, readProfile: (read, options) => fixed.profile(read, options), http: httpOptions(deps, false) }
}

/** The provider's authorization URL for this flow: state, PKCE (S256) and, for OIDC, the nonce. */
export async function authorizationUrl(pc: ProviderClient, flow: { state: string; verifier: string; nonce: string; redirectUri: string }): Promise<URL> {
  const url = new URL(pc.as.authorization_endpoint!)
  url.searchParams.set('client_id', pc.client.client_id)
  url.searchParams.set('redirect_uri', flow.redirectUri)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('scope', pc.scope)
  url.searchParams.set('state', flow.state)
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(flow.verifier))
  url.searchParams.set('code_challenge_method', 'S256')
  if (pc.oidc) url.searchParams.set('nonce', flow.nonce)
  return url
}
