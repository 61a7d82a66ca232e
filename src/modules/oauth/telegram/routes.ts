import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../../deps'
import { ok } from '../../../plugins/envelope'
import { clientIpOf } from '../../../plugins/request-context'
import { isSecureRequest, SESSION_COOKIE, sessionPlugin, startSession } from '../../../plugins/session'
import { Role } from '../../../db/repos/user-roles'
import { openSecretOption } from '../../../options/secret-options'
import { toLoginView } from '../../users/view'
import { admitCallback } from '../callback-limit'
import { oauthError } from '../errors'
import { bindTo, signInWith } from '../sign-in'
import { checkTelegramData, TELEGRAM_AUTH_MAX_AGE_SECONDS } from './check'

// the widget's fields (id, first_name, last_name, username, photo_url, auth_date, hash); all of them are signed
const WidgetQuery = t.Object(
  { id: t.String({ maxLength: 20 }), auth_date: t.String({ maxLength: 12 }), hash: t.String({ maxLength: 64 }) },
  { additionalProperties: true },
)

type TelegramDeps = Pick<AppDeps, 'options' | 'coord' | 'secrets'>

/** The widget's data checked with the bot's token, used once across nodes: the Telegram account it vouches for. */
async function telegramIdentity(deps: TelegramDeps, request: Request) {
  if (!deps.options.get<boolean>('TelegramOAuthEnabled')) throw oauthError(403, 'oauth_disabled', 'sign-in with Telegram is not enabled on this instance')
  const token = await openSecretOption(deps.secrets.crypto, deps.options, 'TelegramBotToken').catch(() => '')
  if (!token) throw oauthError(400, 'oauth_not_configured', 'sign-in with Telegram has no bot token yet: root sets it in Settings')
  const { profile, hash } = checkTelegramData(new URL(request.url).searchParams, token, Math.floor(Date.now() / 1000))
  const once = await deps.coord.windowHit([`telegram-auth:${hash}`], 1, TELEGRAM_AUTH_MAX_AGE_SECONDS + 120)
  if (!once.ok) throw oauthError(400, 'telegram_auth_used', 'this Telegram sign-in was already used: start again from the Telegram button')
  return profile
}

/** new-api's Telegram routes: the login widget's data signs in (or up, with RegisterEnabled), or binds to the user. */
export function telegramModule(deps: AppDeps) {
  return new Elysia({ name: 'oauth-telegram' })
    .use(sessionPlugin(deps))
    .get(
      '/api/oauth/telegram/login',
      async ({ request, server, cookie, sessionJwt }) => {
        const ip = clientIpOf(request, server, deps.config.trustProxy)
        const ticket = await admitCallback(deps, ip)
        const profile = await telegramIdentity(deps, request)
        const { user, created } = await signInWith(deps, 'telegram', profile, { ip, aff: '' })
        await deps.coord.loginSucceeded(ticket)
        await startSession(sessionJwt, cookie[SESSION_COOKIE]!, user, isSecureRequest(deps, request, server))
        const action = created ? 'register' : 'login'
        return ok({ action, ...toLoginView(user) }, created ? 'registered' : 'logged in')
      },
      { query: WidgetQuery },
    )
    .get(
      '/api/oauth/telegram/bind',
      async ({ request, user, clientIp }) => {
        const ticket = await admitCallback(deps, clientIp)
        const profile = await telegramIdentity(deps, request)
        await bindTo(deps, user, 'telegram', profile.id)
        await deps.coord.loginSucceeded(ticket)
        return ok({ action: 'bind', provider: 'telegram' }, 'telegram is bound')
      },
      { role: Role.user, query: WidgetQuery },
    )
}
