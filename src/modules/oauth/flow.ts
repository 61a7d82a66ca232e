import * as oauth from 'oauth4webapi'
import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { endpointMap } from '../../outbound/endpoints'
import { admitCallback } from './callback-limit'
import { authorizationUrl, providerClient } from './client'
import { oauthError } from './errors'
import { exchangeCode } from './exchange'
import type { CustomOAuthRow } from '../../db/repos'
import { customClient } from './custom/client'
import type { OAuthProviderName } from './providers'
import { bindTo, signInWith } from './sign-in'
import { type FlowState, sameText, STATE_TTL_SECONDS } from './state-cookie'

const oauthDeps = (deps: AppDeps) => ({ options: deps.options, cryptoSecret: deps.secrets.crypto, outbound: deps.outbound })

/** A provider as a route names it: the built-in name or a custom slug, the binding type it stores, a custom row. */
export interface ProviderRef {
  route: string
  binding: string
  custom?: CustomOAuthRow
}

const clientFor = (deps: AppDeps, ref: ProviderRef) => (ref.custom ? customClient(oauthDeps(deps), ref.custom) : providerClient(oauthDeps(deps), ref.route as OAuthProviderName))

/**
 * The start of a sign-in (or, with `bindUser`, a binding): a fresh state, PKCE verifier and nonce, and the URL to
 * send the browser to (PROVIDER_ENDPOINTS moves the provider's host there too). The redirect URI is exact:
 * `<ServerAddress or this origin>/oauth/<provider>`, the console page that hands the code to the callback.
 */
export async function startFlow(
  deps: AppDeps,
  input: { provider: ProviderRef; origin: string; bindUser?: UserRow; aff: string },
): Promise<{ flow: FlowState; url: string }> {
  const pc = await clientFor(deps, input.provider)
  const base = deps.options.get<string>('ServerAddress') || input.origin
  const flow: FlowState = {
    state: oauth.generateRandomState(),
    provider: input.provider.route,
    verifier: oauth.generateRandomCodeVerifier(),
    nonce: pc.oidc ? oauth.generateRandomNonce() : '',
    redirectUri: `${base}/oauth/${input.provider.route}`,
    bindUserId: input.bindUser?.id ?? 0,
    aff: input.aff,
    expiresAt: Math.floor(Date.now() / 1000) + STATE_TTL_SECONDS,
  }
  const url = await authorizationUrl(pc, flow)
  return { flow, url: endpointMap(deps.config.providerEndpoints).rewrite(url).url.href }
}

export type FlowOutcome = { action: 'login' | 'register'; user: UserRow } | { action: 'bind'; user: UserRow }

/**
 * The callback: counted by the login limiter (per address, as a password login is; a success gives the attempt
 * back), the state matched against this browser's cookie and used once across nodes, the code exchanged, then the
 * user signed in, signed up or bound.
 */
export async function finishFlow(
  deps: AppDeps,
  input: { provider: ProviderRef; flow: FlowState | undefined; callback: URLSearchParams; ip: string; sessionUser: UserRow | undefined },
): Promise<FlowOutcome> {
  const { coord } = deps
  const ticket = await admitCallback(deps, input.ip)
  const { flow } = input
  const state = input.callback.get('state') ?? ''
  if (!flow || !state || !sameText(flow.state, state)) throw oauthError(400, 'oauth_state_invalid', 'this sign-in was not started in this browser, or it expired: start again')
  if (flow.provider !== input.provider.route) throw oauthError(400, 'oauth_state_invalid', `this sign-in was started for ${flow.provider}, not ${input.provider.route}`)
  // once only, on every node: a replayed callback (its code too) goes no further
  const once = await coord.windowHit([`oauth-state:${flow.state}`], 1, STATE_TTL_SECONDS)
  if (!once.ok) throw oauthError(400, 'oauth_state_used', 'this sign-in was already completed: start again')
  const pc = await clientFor(deps, input.provider)
  const profile = await exchangeCode(oauthDeps(deps), pc, input.callback, flow)
  let outcome: FlowOutcome
  if (flow.bindUserId) {
    const user = input.sessionUser
    if (!user || user.id !== flow.bindUserId) throw oauthError(401, 'oauth_bind_session', 'log in as the user who started the binding, then start again')
    await bindTo(deps, user, input.provider.binding, profile.id)
    outcome = { action: 'bind', user }
  } else {
    const { user, created } = await signInWith(deps, input.provider.binding, profile, { ip: input.ip, aff: flow.aff })
    outcome = { action: created ? 'register' : 'login', user }
  }
  await coord.loginSucceeded(ticket)
  return outcome
}
