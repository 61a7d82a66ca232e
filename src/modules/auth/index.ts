import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { clientIpOf } from '../../plugins/request-context'
import { clearSessionCookie, isSecureRequest, liveSessionUser, readSessionClaims, SESSION_COOKIE, sessionCookieOf, sessionPlugin, startSession } from '../../plugins/session'
import { Role, UserStatus } from '../../db/repos/user-roles'
import { Password, Username } from '../users/credentials'
import { toLoginView, toUserView } from '../users/view'
import { secondStepIfNeeded, TWOFA_FLOW_COOKIE } from '../twofa/login-step'
import { requireSecureVerification } from '../twofa/secure-verification'
import { issueAccessToken } from './access-token'
import { login } from './login'
import { logout, logoutEverywhere } from './logout'
import { register } from './register'

const LoginBody = t.Object({ username: t.String({ minLength: 1, maxLength: 64 }), password: t.String({ minLength: 1, maxLength: 128 }) })
const RegisterBody = t.Object({ username: Username, password: Password, aff_code: t.Optional(t.String({ maxLength: 32 })) })

/** Logging in and out, self-registration and the management access token. */
export function authModule(deps: AppDeps) {
  return new Elysia({ name: 'auth' })
    .use(sessionPlugin(deps))
    .post(
      '/api/user/login',
      async ({ body, sessionJwt, cookie, request, server }) => {
        const user = await login(deps, { ...body, ip: clientIpOf(request, server, deps.config.trustProxy) })
        const secure = isSecureRequest(deps, request, server)
        const secondStep = await secondStepIfNeeded(deps, user, cookie[TWOFA_FLOW_COOKIE]!, secure, Date.now())
        if (secondStep) return ok(secondStep, 'enter the code from your authenticator app, or a backup code')
        await startSession(sessionJwt, cookie[SESSION_COOKIE]!, user, secure)
        return ok(toLoginView(user))
      },
      { body: LoginBody },
    )
    // revokes the session it is called with (server-side), then clears the cookie; always succeeds
    .get('/api/user/logout', async ({ sessionJwt, cookie, request, server }) => {
      const sessionCookie = cookie[SESSION_COOKIE]!
      await logout(deps, await readSessionClaims(sessionJwt, sessionCookie.value))
      clearSessionCookie(sessionCookie, isSecureRequest(deps, request, server))
      return ok(null, 'logged out')
    })
    // every session of the caller's account and its access token end; this browser's cookie is cleared too
    .post(
      '/api/user/logout_all',
      async ({ user, cookie, request, server }) => {
        await logoutEverywhere(deps, user)
        clearSessionCookie(cookie[SESSION_COOKIE]!, isSecureRequest(deps, request, server))
        return ok(null, 'logged out everywhere: every session and the access token have ended')
      },
      { role: Role.user },
    )
    // the console asks who is logged in without a 401 (which a browser logs as an error) when nobody is
    .get('/api/user/session', async ({ sessionJwt, cookie }) => {
      const claims = await readSessionClaims(sessionJwt, cookie[SESSION_COOKIE]!.value)
      const user = claims && (await liveSessionUser(deps, claims))
      return ok(user && user.status === UserStatus.enabled ? toUserView(user) : null)
    })
    .post('/api/user/register', async ({ body, request, server }) => ok(toUserView(await register(deps, { ...body, ip: clientIpOf(request, server, deps.config.trustProxy) })), 'registered'), {
      body: RegisterBody,
    })
    // a secret revealed: a console session must have proved its user within the last minutes (secure verification);
    // a caller with the access token itself (no live session) already holds the secret it rotates
    .get(
      '/api/user/token',
      async ({ user, sessionJwt, request }) => {
        const claims = await readSessionClaims(sessionJwt, sessionCookieOf(request.headers))
        if (claims && (await liveSessionUser(deps, claims))?.id === user.id) requireSecureVerification(claims, user.id, Date.now())
        return ok(await issueAccessToken(deps, user.id), 'keep this token: it is shown only once')
      },
      { role: Role.user },
    )
}
