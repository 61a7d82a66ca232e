import * as oauth from 'oauth4webapi'
import type { OptionStore } from '../../options/store'
import { OutboundRefused } from '../../outbound/fetch'
import type { ProviderClient, OAuthDeps } from './client'
import { oauthError } from './errors'
import { field, type ProviderProfile } from './profile'
import { ProfileRefused } from './providers'
import type { FlowState } from './state-cookie'

const MAX_BODY = 256 * 1024

/**
 * The callback's code for the account that signed in: the callback checked (oauth4webapi: error, iss), the code
 * exchanged with the PKCE verifier and the same redirect URI, the ID token checked (iss, aud, exp, nonce) for
 * OIDC, then the profile read. Every refusal is a 4xx (or 502 when the provider cannot be reached) with a code.
 */
export async function exchangeCode(deps: Pick<OAuthDeps, 'outbound' | 'options'>, pc: ProviderClient, callback: URLSearchParams, flow: FlowState): Promise<ProviderProfile> {
  try {
    const params = oauth.validateAuthResponse(pc.as, pc.client, callback, flow.state)
    const response = await oauth.authorizationCodeGrantRequest(pc.as, pc.client, pc.auth, params, flow.redirectUri, flow.verifier, pc.http)
    const tokens = await oauth.processAuthorizationCodeResponse(pc.as, pc.client, response, pc.oidc ? { expectedNonce: flow.nonce, requireIdToken: true } : undefined)
    const profile = pc.oidc ? await oidcProfile(pc, tokens) : await pc.readProfile!(reader(deps, tokens.access_token), deps.options as OptionStore)
    if (!profile.id) throw oauthError(502, 'oauth_failed', `${pc.name} gave no account id`)
    return profile
  } catch (error) {
    throw asRefusal(pc.name, error)
  }
}

/** The ID token's claims, with the userinfo endpoint's (same `sub`, checked) when the provider has one. */
async function oidcProfile(pc: ProviderClient, tokens: oauth.TokenEndpointResponse): Promise<ProviderProfile> {
  const idToken = oauth.getValidatedIdTokenClaims(tokens)!
  let claims: Record<string, unknown> = { ...idToken }
  if (pc.as.userinfo_endpoint) {
    const response = await oauth.userInfoRequest(pc.as, pc.client, tokens.access_token, pc.http)
    claims = { ...claims, ...(await oauth.processUserInfoResponse(pc.as, pc.client, idToken.sub, response)) }
  }
  const username = field(claims, 'preferred_username') || field(claims, 'nickname') || field(claims, 'name')
  const verified = claims.email_verified === true
  return { id: field(claims, 'sub'), username, displayName: field(claims, 'name') || username, email: field(claims, 'email', 254), emailVerified: verified }
}

/** GET a protected resource with the access token (the provider's API), through the outbound guard. */
function reader(deps: Pick<OAuthDeps, 'outbound'>, accessToken: string) {
  return async (url: string): Promise<unknown> => {
    const response = await deps.outbound.fetch(url, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', 'user-agent': 'Tollgate' },
      signal: AbortSignal.timeout(15_000),
    })
    const text = await response.text()
    if (!response.ok) throw oauthError(502, 'oauth_failed', `${new URL(url).pathname} answered ${response.status}`)
    if (text.length > MAX_BODY) throw oauthError(502, 'oauth_failed', `${new URL(url).pathname} answered more than ${MAX_BODY} bytes`)
    return JSON.parse(text) as unknown
  }
}

function asRefusal(provider: string, error: unknown): Error {
  if (error instanceof ProfileRefused) return oauthError(403, 'oauth_account_refused', error.message)
  if (error instanceof oauth.AuthorizationResponseError) return oauthError(400, 'oauth_denied', `${provider} answered ${error.error}${error.error_description ? `: ${error.error_description}` : ''}`)
  if (error instanceof oauth.ResponseBodyError) return oauthError(400, 'oauth_code_refused', `${provider} refused the code: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`)
  if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) return oauthError(400, 'oauth_failed', `${provider}'s answer was refused: ${error.message}`)
  if (error instanceof OutboundRefused || error instanceof TypeError || (error as Error).name === 'TimeoutError') return oauthError(502, 'oauth_provider_unreachable', `${provider} could not be reached: ${(error as Error).message}`)
  if (error instanceof SyntaxError) return oauthError(502, 'oauth_failed', `${provider} answered something that is not JSON`)
  return error as Error
}
