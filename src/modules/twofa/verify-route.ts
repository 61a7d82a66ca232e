import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { GatewayError } from '../../errors'
import { ok } from '../../plugins/envelope'
import { clientIpOf } from '../../plugins/request-context'
import { isSecureRequest, readSessionClaims, SESSION_COOKIE, sessionPlugin, startSession } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { login } from '../auth/login'
import { countedCodeCheck } from './code-attempts'
import { factorError } from './errors'
import { factorDeps } from './factor-deps'
import { SECURE_VERIFICATION_SECONDS } from './secure-verification'
import { consumeSecondFactor } from './twofa-service'

const VerifyBody = t.Object({
  method: t.Union([t.Literal('password'), t.Literal('2fa'), t.Literal('passkey')]),
  code: t.Optional(t.String({ maxLength: 64 })),
  password: t.Optional(t.String({ maxLength: 128 })),
})

/** The password under the login limits; a wrong one is a 400 here (a 401 would read as "logged out"). */
async function checkPassword(deps: AppDeps, username: string, password: string, ip: string): Promise<void> {
  try {
    await login(deps, { username, password, ip })
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'login_failed') throw factorError(400, 'secure_verification_password_wrong', 'the password is wrong')
    throw error
  }
}

/**
 * new-api's universal secure verification: a fresh password or 2FA code marks this session verified for a few
 * minutes (the cookie is re-signed with the time); a passkey does it through /api/user/passkey/verify/*.
 */
export function verifyModule(deps: AppDeps, clock: () => number = Date.now) {
  return new Elysia({ name: 'secure-verify' }).use(sessionPlugin(deps)).post(
    '/api/verify',
    async ({ user, body, sessionJwt, cookie, request, server }) => {
      const sessionCookie = cookie[SESSION_COOKIE]!
      const claims = await readSessionClaims(sessionJwt, sessionCookie.value)
      if (!claims || claims.userId !== user.id) throw factorError(403, 'secure_verification_needs_session', 'secure verification needs a console session, not an access token')
      const ip = clientIpOf(request, server, deps.config.trustProxy)
      if (body.method === 'passkey') throw factorError(400, 'secure_verification_use_passkey_flow', 'verify with a passkey through /api/user/passkey/verify/begin and /finish')
      if (body.method === 'password') await checkPassword(deps, user.username, body.password ?? '', ip)
      else await countedCodeCheck(deps, user.id, ip, () => consumeSecondFactor(factorDeps(deps), user.id, body.code ?? '', clock()))
      const verifiedAt = Math.floor(clock() / 1000)
      await startSession(sessionJwt, sessionCookie, user, isSecureRequest(deps, request, server), { sessionId: claims.sessionId, verifiedAt })
      return ok({ verified: true, method: body.method, expires_at: verifiedAt + SECURE_VERIFICATION_SECONDS }, 'verified')
    },
    { role: Role.user, body: VerifyBody },
  )
}
