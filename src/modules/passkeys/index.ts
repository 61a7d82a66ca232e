import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import { Elysia, t } from 'elysia'
import { loginError } from '../../coord'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { IdParams } from '../../plugins/paging'
import { clientIpOf } from '../../plugins/request-context'
import { isSecureRequest, readSessionClaims, SESSION_COOKIE, sessionCookieOf, sessionPlugin, startSession } from '../../plugins/session'
import { Role, UserStatus } from '../../db/repos/user-roles'
import { manageLogHook } from '../../metering/manage-log'
import { addressGroup } from '../auth/login-keys'
import { findUser } from '../users/admin'
import { assertCanActOn } from '../users/rules'
import { toLoginView } from '../users/view'
import { factorError } from '../twofa/errors'
import { factorDeps } from '../twofa/factor-deps'
import { requireSecureVerification, SECURE_VERIFICATION_SECONDS } from '../twofa/secure-verification'
import { beginAssertion, beginRegistration, finishAssertion, finishRegistration, passkeyFailed, passkeyStatus } from './passkey-service'
import { relyingParty } from './relying-party'

// the browser's PublicKeyCredential as JSON (@simplewebauthn/browser): checked in depth by the library
const Credential = t.Object({ id: t.String({ maxLength: 1024 }), rawId: t.String({ maxLength: 1024 }), type: t.String({ maxLength: 32 }), response: t.Record(t.String(), t.Unknown()) }, { additionalProperties: true })
const DeleteQuery = t.Object({ id: t.Optional(t.Numeric({ minimum: 1 })) })
const RegisterQuery = t.Object({ name: t.Optional(t.String({ maxLength: 64 })) })

/** Passkeys (new-api's /api/user/passkey/*): register, list, remove, sign in without a password, verify a session. */
export function passkeysModule(deps: AppDeps, clock: () => number = Date.now) {
  const repo = factorDeps(deps).factors
  const rpOf = (request: Request, server: Parameters<typeof clientIpOf>[1]) =>
    relyingParty({ serverAddress: deps.options.get<string>('ServerAddress'), systemName: deps.options.get<string>('SystemName'), request, server, trustProxy: deps.config.trustProxy })
  const claimsOf = (jwt: { verify(token?: string): Promise<unknown> }, request: Request) => readSessionClaims(jwt, sessionCookieOf(request.headers))
  // a passkey sign-in is counted per address under the login limiter, like a password
  const counted = async <T>(ip: string, run: () => Promise<T>): Promise<T> => {
    const { options } = deps
    const keys = [{ key: `addr:${addressGroup(ip)}`, free: options.get<number>('LoginFailuresPerAddress') }]
    const attempt = await deps.coord.loginAttempt(keys, { maxSeconds: options.get<number>('LoginBackoffMaxSeconds'), forgetSeconds: options.get<number>('LoginFailureWindowSeconds') })
    if (!attempt.ok) throw loginError(attempt)
    const result = await run()
    await deps.coord.loginSucceeded(attempt.ticket)
    return result
  }

  // `passkey.enabled` off: no ceremony starts or finishes (stored passkeys stay, unused)
  const switchedOn = () => {
    if (!deps.options.get<boolean>('passkey.enabled')) throw factorError(403, 'passkey_disabled', 'passkeys are switched off on this instance')
  }

  return new Elysia({ name: 'passkeys' })
    .use(sessionPlugin(deps))
    .onBeforeHandle(({ request }) => {
      if (request.method === 'POST' && new URL(request.url).pathname.startsWith('/api/user/passkey/')) switchedOn()
    })
    .get('/api/user/passkey', async ({ user }) => ok(await passkeyStatus(repo, user.id)), { role: Role.user })
    .post(
      '/api/user/passkey/register/begin',
      async ({ user, sessionJwt, request, server }) => {
        // a stolen session must not plant its own passkey: a fresh check first
        requireSecureVerification(await claimsOf(sessionJwt, request), user.id, clock())
        return ok({ options: await beginRegistration(repo, user, rpOf(request, server), clock()) })
      },
      { role: Role.user },
    )
    .post(
      '/api/user/passkey/register/finish',
      async ({ user, body, query, request, server }) => {
        const row = await finishRegistration(repo, user.id, rpOf(request, server), body as unknown as RegistrationResponseJSON, query.name ?? '', clock())
        return ok({ id: row.id }, 'passkey registered')
      },
      { role: Role.user, body: Credential, query: RegisterQuery },
    )
    .delete(
      '/api/user/passkey',
      async ({ user, query, sessionJwt, request }) => {
        requireSecureVerification(await claimsOf(sessionJwt, request), user.id, clock())
        const removed = await repo.deletePasskeys(user.id, query.id)
        if (removed === 0) throw factorError(404, 'passkey_not_found', 'no such passkey')
        return ok({ removed }, 'passkey removed')
      },
      { role: Role.user, query: DeleteQuery },
    )
    .post('/api/user/passkey/login/begin', async ({ request, server }) => ok({ options: await beginAssertion(repo, rpOf(request, server), 'pk_login', null, clock()) }))
    .post(
      '/api/user/passkey/login/finish',
      async ({ body, cookie, sessionJwt, request, server }) => {
        const ip = clientIpOf(request, server, deps.config.trustProxy)
        const row = await counted(ip, () => finishAssertion(repo, rpOf(request, server), 'pk_login', body as unknown as AuthenticationResponseJSON, null, clock()))
        const user = await deps.repos.users.findById(row.userId)
        if (!user || user.status !== UserStatus.enabled) throw passkeyFailed()
        await startSession(sessionJwt, cookie[SESSION_COOKIE]!, user, isSecureRequest(deps, request, server))
        return ok(toLoginView(user))
      },
      { body: Credential },
    )
    .post('/api/user/passkey/verify/begin', async ({ user, request, server }) => ok({ options: await beginAssertion(repo, rpOf(request, server), 'pk_verify', user, clock()) }), {
      role: Role.user,
    })
    .post(
      '/api/user/passkey/verify/finish',
      async ({ user, body, cookie, sessionJwt, request, server }) => {
        const sessionCookie = cookie[SESSION_COOKIE]!
        const claims = await readSessionClaims(sessionJwt, sessionCookie.value)
        if (!claims || claims.userId !== user.id) throw factorError(403, 'secure_verification_needs_session', 'secure verification needs a console session, not an access token')
        await finishAssertion(repo, rpOf(request, server), 'pk_verify', body as unknown as AuthenticationResponseJSON, user.id, clock())
        const verifiedAt = Math.floor(clock() / 1000)
        await startSession(sessionJwt, sessionCookie, user, isSecureRequest(deps, request, server), { sessionId: claims.sessionId, verifiedAt })
        return ok({ verified: true, method: 'passkey', expires_at: verifiedAt + SECURE_VERIFICATION_SECONDS }, 'verified')
      },
      { role: Role.user, body: Credential },
    )
    .group('', (admin) =>
      admin.onAfterHandle(manageLogHook(deps, 'user')).delete(
        '/api/user/:id/reset_passkey',
        async ({ user, params }) => {
          const target = await findUser(deps, params.id)
          assertCanActOn(user, target)
          if ((await repo.deletePasskeys(target.id)) === 0) throw factorError(400, 'passkey_none', 'this user has no passkey')
          return ok(null, `the passkeys of ${target.username} were removed`)
        },
        { role: Role.admin, params: IdParams },
      ),
    )
}
