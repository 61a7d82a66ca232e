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
import { checkTurnstile, TURNSTILE_TOKEN_MAX } from '../../turnstile/siteverify'
import { mailFlowDeps } from '../mail'

const LoginBody = t.Object({ username: t.String({ minLength: 1, maxLength: 64 }), password: t.String({ minLength: 1, maxLength: 128 }) })
const RegisterBody = t.Object({
  username: Username,
  password: Password,
  aff_code: t.Optional(t.String({ maxLength: 32 })),
  // with EmailVerificationEnabled (new-api's fields): the address and the code GET /api/verification mailed to it
  email: t.Optional(t.String({ maxLength: 254 })),
  verification_code: t.Optional(t.String({ maxLength: 16 })),
})
/** new-api passes the Turnstile widget's token as `?turnstile=` (middleware/turnstile-check.go). */
const TurnstileQuery = t.Object({ turnstile: t.Optional(t.String({ maxLength: TURNSTILE_TOKEN_MAX })) })

/** Logging in and out, self-registration and the management access token. */
export function authModule(deps: AppDeps) {
  const turnstile = (token: string | undefined, ip: string) => checkTurnstile({ options: deps.options, cryptoSecret: deps.secrets.crypto, fetch: deps.outbound.fetch }, token, ip)
  return new Elysia({ name: 'auth' })
    .use(sessionPlugin(deps))
    .post(
      '/api/user/login',
      async ({ body, query, sessionJwt, cookie, request, server }) => {
        const ip = clientIpOf(request, server, deps.config.trustProxy)
        await turnstile(query.turnstile, ip)
        const user = await login(deps, { ...body, ip })
        const secure = isSecureRequest(deps, request, server)
        const secondStep = await secondStepIfNeeded(deps, user, cookie[TWOFA_FLOW_COOKIE]!, secure, Date.now())
        if (secondStep) return ok(secondStep, 'enter the code from your authenticator app, or a backup code')
        await startSession(sessionJwt, cookie[SESSION_COOKIE]!, user, secure)
        return ok(toLoginView(user))
      },
      { body: LoginBody, query: TurnstileQuery },
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
    .post(
      '/api/user/register',
      async ({ body, query, request, server }) => {
        const ip = clientIpOf(request, server, deps.config.trustProxy)
        await turnstile(query.turnstile, ip)
        return ok(toUserView(await register(deps, { ...body, ip }, mailFlowDeps(deps))), 'registered')
      },
      { body: RegisterBody, query: TurnstileQuery },
    )
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
