import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../../deps'
import { ok } from '../../../plugins/envelope'
import { clientIpOf } from '../../../plugins/request-context'
import { isSecureRequest, SESSION_COOKIE, sessionPlugin, startSession } from '../../../plugins/session'
import { Role } from '../../../db/repos/user-roles'
import { toLoginView } from '../../users/view'
import { admitCallback } from '../callback-limit'
import type { ProviderProfile } from '../profile'
import { bindTo, signInWith } from '../sign-in'
import { wechatIdByCode } from './server'

// the code the official account replied (new-api's WeChat server sends a few digits or letters)
const Code = t.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })

const wechatProfile = (id: string): ProviderProfile => ({ id, username: '', displayName: 'WeChat User', email: '', emailVerified: false })

/**
 * new-api's WeChat routes: the user scans the official account's QR code, gets a code from it, and types it here; the
 * WeChat server says which account the code stands for. Each try counts on the login limiter (codes are short).
 */
export function wechatModule(deps: AppDeps) {
  const serverDeps = { options: deps.options, cryptoSecret: deps.secrets.crypto, outbound: deps.outbound }
  return new Elysia({ name: 'oauth-wechat' })
    .use(sessionPlugin(deps))
    .get(
      '/api/oauth/wechat',
      async ({ query, request, server, cookie, sessionJwt }) => {
        const ip = clientIpOf(request, server, deps.config.trustProxy)
        const ticket = await admitCallback(deps, ip)
        const id = await wechatIdByCode(serverDeps, query.code)
        const { user, created } = await signInWith(deps, 'wechat', wechatProfile(id), { ip, aff: query.aff ?? '' })
        await deps.coord.loginSucceeded(ticket)
        await startSession(sessionJwt, cookie[SESSION_COOKIE]!, user, isSecureRequest(deps, request, server))
        return ok({ action: created ? 'register' : 'login', ...toLoginView(user) }, created ? 'registered' : 'logged in')
      },
      { query: t.Object({ code: Code, aff: t.Optional(t.String({ maxLength: 32 })) }) },
    )
    .post(
      '/api/oauth/wechat/bind',
      async ({ body, user, clientIp }) => {
        const ticket = await admitCallback(deps, clientIp)
        await bindTo(deps, user, 'wechat', await wechatIdByCode(serverDeps, body.code))
        await deps.coord.loginSucceeded(ticket)
        return ok({ action: 'bind', provider: 'wechat' }, 'wechat is bound')
      },
      { role: Role.user, body: t.Object({ code: Code }) },
    )
}
