import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { createSecretBox } from '../../crypto/secret-box'
import { BadRequestError, GatewayError } from '../../errors'
import { manageLogHook } from '../../metering/manage-log'
import { endpointMap } from '../../outbound/endpoints'
import { ok, type Envelope } from '../../plugins/envelope'
import { IdParams } from '../../plugins/paging'
import { isSecureRequest, sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { codexChannel, refreshCodexChannel, saveCodexKey, type CodexPorts } from '../../codex/credentials'
import { exchangeCode, newAuthorization, parseCallbackInput } from '../../codex/oauth'
import { openSignIn, sealKey, sealSignIn, SIGN_IN_COOKIE, SIGN_IN_TTL_MS } from '../../codex/sign-in-state'
import { codexUsage } from '../../codex/usage'

const CompleteBody = t.Object({ input: t.String({ maxLength: 4096 }) })

/**
 * Codex channels' ChatGPT sign-in (new-api's routes): start gives the address to sign in at, complete takes the
 * address the browser landed on and stores the tokens on the channel (or, for a channel not yet created, hands
 * them back sealed for its key field); refresh renews them now; usage reads the subscription's windows.
 */
export function codexModule(deps: AppDeps) {
  const admin = { role: Role.admin }
  const box = createSecretBox(deps.secrets.crypto)
  const ports: CodexPorts = { fetch: deps.outbound.fetch, channels: deps.routing.channels, coord: deps.coord, now: deps.clock.now }
  const cookieOptions = (secure: boolean) => ({ httpOnly: true, sameSite: 'strict' as const, secure, path: '/api/channel' })
  type Cookie = Record<string, { value: unknown; set(options: Record<string, unknown>): unknown }>

  const start = async (channelId: number, userId: number, cookie: Cookie, secure: boolean) => {
    if (channelId) codexChannel(ports, channelId)
    const { state, verifier, url } = newAuthorization()
    const sealed = await sealSignIn(box, { state, verifier, channelId, userId, expiresAt: deps.clock.now() + SIGN_IN_TTL_MS })
    cookie[SIGN_IN_COOKIE]!.set({ value: sealed, maxAge: SIGN_IN_TTL_MS / 1000, ...cookieOptions(secure) })
    return ok({ authorize_url: endpointMap(deps.config.providerEndpoints).rewrite(url).url.href })
  }

  const complete = async (channelId: number, userId: number, input: string, cookie: Cookie, secure: boolean) => {
    const { code, state } = parseCallbackInput(input)
    if (!code) throw new BadRequestError('missing authorization code', 'input')
    if (!state) throw new BadRequestError('missing state in input: paste the whole address the browser landed on', 'input')
    if (channelId) codexChannel(ports, channelId)
    const flow = await openSignIn(box, cookie[SIGN_IN_COOKIE]!.value, deps.clock.now())
    if (!flow || flow.userId !== userId || flow.channelId !== channelId) throw codexError('codex_oauth_not_started', 'the sign-in was not started here, or it expired: start again')
    if (flow.state !== state) throw codexError('codex_oauth_state_mismatch', 'state mismatch: paste the address of the sign-in started last')
    // used or not, the flow is spent: a second try starts over
    cookie[SIGN_IN_COOKIE]!.set({ value: '', maxAge: 0, expires: new Date(0), ...cookieOptions(secure) })
    const key = await exchangeCode(deps.outbound.fetch, code, flow.verifier, deps.clock.now())
    const shown = { account_id: key.account_id, email: key.email ?? '', expires_at: key.expired, last_refresh: key.last_refresh }
    if (channelId) {
      await saveCodexKey(ports, channelId, key)
      return ok({ channel_id: channelId, ...shown }, 'saved')
    }
    return ok({ key: await sealKey(box, JSON.stringify(key), deps.clock.now() + SIGN_IN_TTL_MS * 6), ...shown }, 'generated')
  }

  return new Elysia({ name: 'codex' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'channel', (body) => (body && typeof body === 'object' && 'input' in body ? { input: '[redacted]' } : body)))
    .post('/api/channel/codex/oauth/start', ({ user, cookie, request, server }) => start(0, user.id, cookie as Cookie, isSecureRequest(deps, request, server)), admin)
    .post('/api/channel/codex/oauth/complete', ({ user, body, cookie, request, server }) => complete(0, user.id, body.input, cookie as Cookie, isSecureRequest(deps, request, server)), { ...admin, body: CompleteBody })
    .post('/api/channel/:id/codex/oauth/start', ({ params, user, cookie, request, server }) => start(params.id, user.id, cookie as Cookie, isSecureRequest(deps, request, server)), { ...admin, params: IdParams })
    .post(
      '/api/channel/:id/codex/oauth/complete',
      ({ params, user, body, cookie, request, server }) => complete(params.id, user.id, body.input, cookie as Cookie, isSecureRequest(deps, request, server)),
      { ...admin, params: IdParams, body: CompleteBody },
    )
    .post(
      '/api/channel/:id/codex/refresh',
      async ({ params }) => {
        const { key } = await refreshCodexChannel(ports, params.id)
        return ok({ channel_id: params.id, account_id: key.account_id, email: key.email ?? '', expires_at: key.expired, last_refresh: key.last_refresh }, 'refreshed')
      },
      { ...admin, params: IdParams },
    )
    .get(
      '/api/channel/:id/codex/usage',
      async ({ params }) => {
        const usage = await codexUsage(ports, params.id)
        const fine = usage.status >= 200 && usage.status < 300
        // new-api's shape: the upstream's status beside its answer
        return { success: fine, message: fine ? '' : `upstream status: ${usage.status}`, upstream_status: usage.status, data: usage.body } satisfies Envelope<unknown> & { upstream_status: number }
      },
      { ...admin, params: IdParams },
    )
}

const codexError = (code: string, message: string) => new GatewayError(400, code, message, 'input')
