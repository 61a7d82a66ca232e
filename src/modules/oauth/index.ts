import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { clientIpOf, isHttpsRequest } from '../../plugins/request-context'
import { isSecureRequest, liveSessionUser, readSessionClaims, SESSION_COOKIE, sessionPlugin, startSession } from '../../plugins/session'
import { UserStatus } from '../../db/repos/user-roles'
import { toLoginView } from '../users/view'
import { oauthError } from './errors'
import { customBinding } from './custom/client'
import { finishFlow, type ProviderRef, startFlow } from './flow'
import { isOAuthProvider } from './providers'
import { openFlowState, sealFlowState, STATE_COOKIE, STATE_TTL_SECONDS } from './state-cookie'
import { telegramModule } from './telegram/routes'
import { wechatModule } from './wechat/routes'

const StateQuery = t.Object({
  provider: t.String({ maxLength: 32 }),
  action: t.Optional(t.Union([t.Literal('login'), t.Literal('bind')])),
  aff: t.Optional(t.String({ maxLength: 32 })),
})
const CallbackQuery = t.Object(
  {
    state: t.Optional(t.String({ maxLength: 512 })),
    code: t.Optional(t.String({ maxLength: 2048 })),
    error: t.Optional(t.String({ maxLength: 256 })),
    error_description: t.Optional(t.String({ maxLength: 1024 })),
    iss: t.Optional(t.String({ maxLength: 1024 })),
  },
  { additionalProperties: true },
)

/** A built-in provider, or a custom one by its slug. */
async function providerOf(deps: AppDeps, name: string): Promise<ProviderRef> {
  if (isOAuthProvider(name)) return { route: name, binding: name }
  const custom = /^[a-z0-9][a-z0-9-]{0,63}$/.test(name) ? await deps.repos.customOAuth.findBySlug(name) : undefined
  if (!custom) throw oauthError(404, 'oauth_unknown_provider', `no sign-in provider "${name}"`)
  return { route: custom.slug, binding: customBinding(custom), custom }
}

/** Sign-in through GitHub, Discord, LinuxDO and an OpenID Provider (new-api's /api/oauth/state and /api/oauth/:provider). */
export function oauthModule(deps: AppDeps) {
  const cookieOptions = (secure: boolean) => ({ httpOnly: true, sameSite: 'lax' as const, secure, path: '/api/oauth' })
  return new Elysia({ name: 'oauth' })
    .use(sessionPlugin(deps))
    // the ways in that do not redirect (their own routes, before /api/oauth/:provider)
    .use(telegramModule(deps))
    .use(wechatModule(deps))
    // starts a flow: the state cookie for this browser, and the provider's URL to go to
    .get(
      '/api/oauth/state',
      async ({ query, cookie, sessionJwt, request, server }) => {
        const provider = await providerOf(deps, query.provider)
        const claims = await readSessionClaims(sessionJwt, cookie[SESSION_COOKIE]!.value)
        const user = claims && (await liveSessionUser(deps, claims))
        if (query.action === 'bind' && (!user || user.status !== UserStatus.enabled)) throw oauthError(401, 'unauthorized', 'log in to bind a sign-in provider')
        const secure = isSecureRequest(deps, request, server)
        const host = request.headers.get('host') ?? new URL(request.url).host
        const origin = `${isHttpsRequest(request, server, deps.config.trustProxy) ? 'https' : 'http'}://${host}`
        const { flow, url } = await startFlow(deps, { provider, origin, bindUser: query.action === 'bind' ? user : undefined, aff: query.aff ?? '' })
        cookie[STATE_COOKIE]!.set({ value: sealFlowState(deps.secrets.session, flow), maxAge: STATE_TTL_SECONDS, ...cookieOptions(secure) })
        return ok({ state: flow.state, authorize_url: url, redirect_uri: flow.redirectUri })
      },
      { query: StateQuery },
    )
    // the callback: the console's /oauth/<provider> page hands over the provider's query as it came
    .get(
      '/api/oauth/:provider',
      async ({ params, cookie, sessionJwt, request, server }) => {
        const provider = await providerOf(deps, params.provider)
        const stateCookie = cookie[STATE_COOKIE]!
        const flow = openFlowState(deps.secrets.session, stateCookie.value)
        const secure = isSecureRequest(deps, request, server)
        // used or not, the flow's cookie goes: a second try starts over
        stateCookie.set({ value: '', maxAge: 0, expires: new Date(0), ...cookieOptions(secure) })
        const claims = await readSessionClaims(sessionJwt, cookie[SESSION_COOKIE]!.value)
        const sessionUser = claims && (await liveSessionUser(deps, claims))
        const ip = clientIpOf(request, server, deps.config.trustProxy)
        const outcome = await finishFlow(deps, { provider, flow, callback: new URL(request.url).searchParams, ip, sessionUser })
        if (outcome.action === 'bind') return ok({ action: outcome.action, provider: provider.binding }, `${provider.route} is bound`)
        await startSession(sessionJwt, cookie[SESSION_COOKIE]!, outcome.user, secure)
        return ok({ action: outcome.action, ...toLoginView(outcome.user) }, outcome.action === 'register' ? 'registered' : 'logged in')
      },
      { params: t.Object({ provider: t.String({ maxLength: 32 }) }), query: CallbackQuery },
    )
}
