import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { IdParams } from '../../plugins/paging'
import { clientIpOf } from '../../plugins/request-context'
import { isSecureRequest, SESSION_COOKIE, sessionPlugin, startSession } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { manageLogHook } from '../../metering/manage-log'
import { findUser } from '../users/admin'
import { assertCanActOn } from '../users/rules'
import { toLoginView } from '../users/view'
import { countedCodeCheck } from './code-attempts'
import { notEnabled } from './errors'
import { factorDeps } from './factor-deps'
import { finishTwoFactorLogin } from './login-flow'
import { TWOFA_FLOW_COOKIE } from './login-step'
import { consumeSecondFactor, disableTwoFactor, enableTwoFactor, regenerateBackupCodes, setupTwoFactor, twoFactorStatus } from './twofa-service'

const CodeBody = t.Object({ code: t.String({ minLength: 1, maxLength: 64 }) })
const LoginCodeBody = t.Object({ code: t.String({ minLength: 1, maxLength: 64 }), flow_token: t.Optional(t.String({ maxLength: 128 })) })

/** TOTP with backup codes (new-api's /api/user/2fa/* and /api/user/login/2fa); `clock` for tests that cross a step. */
export function twoFactorModule(deps: AppDeps, clock: () => number = Date.now) {
  const factors = factorDeps(deps)
  const ipOf = (request: Request, server: Parameters<typeof clientIpOf>[1]) => clientIpOf(request, server, deps.config.trustProxy)
  return new Elysia({ name: 'twofa' })
    .use(sessionPlugin(deps))
    .get('/api/user/2fa/status', async ({ user }) => ok(await twoFactorStatus(factors, user.id)), { role: Role.user })
    .post(
      '/api/user/2fa/setup',
      async ({ user }) => ok(await setupTwoFactor(factors, user, deps.options.get<string>('SystemName')), 'scan the QR code, then enter a code to turn 2FA on'),
      { role: Role.user },
    )
    .post(
      '/api/user/2fa/enable',
      async ({ user, body, request, server }) => {
        await countedCodeCheck(deps, user.id, ipOf(request, server), async () => (await enableTwoFactor(factors, user.id, body.code, clock())) || null)
        return ok(null, 'two-factor authentication is on')
      },
      { role: Role.user, body: CodeBody },
    )
    .post(
      '/api/user/2fa/disable',
      async ({ user, body, request, server }) => {
        await countedCodeCheck(deps, user.id, ipOf(request, server), () => consumeSecondFactor(factors, user.id, body.code, clock()))
        await disableTwoFactor(factors, user.id)
        return ok(null, 'two-factor authentication is off')
      },
      { role: Role.user, body: CodeBody },
    )
    .post(
      '/api/user/2fa/backup_codes',
      async ({ user, body, request, server }) => {
        await countedCodeCheck(deps, user.id, ipOf(request, server), () => consumeSecondFactor(factors, user.id, body.code, clock(), false))
        return ok({ backup_codes: await regenerateBackupCodes(factors, user.id) }, 'new backup codes: the old ones no longer work')
      },
      { role: Role.user, body: CodeBody },
    )
    .post(
      '/api/user/login/2fa',
      async ({ body, cookie, sessionJwt, request, server }) => {
        const flowCookie = cookie[TWOFA_FLOW_COOKIE]!
        const token = body.flow_token ?? (typeof flowCookie.value === 'string' ? flowCookie.value : '')
        const { user } = await finishTwoFactorLogin(deps, { token, code: body.code, ip: ipOf(request, server), nowMs: clock() })
        flowCookie.set({ value: '', maxAge: 0, path: '/api/user/login', httpOnly: true, sameSite: 'strict' })
        await startSession(sessionJwt, cookie[SESSION_COOKIE]!, user, isSecureRequest(deps, request, server))
        return ok(toLoginView(user))
      },
      { body: LoginCodeBody },
    )
    .group('', (admin) =>
      admin.onAfterHandle(manageLogHook(deps, 'user')).delete(
        '/api/user/:id/2fa',
        async ({ user, params }) => {
          const target = await findUser(deps, params.id)
          assertCanActOn(user, target)
          if (!(await disableTwoFactor(factors, target.id))) throw notEnabled()
          return ok(null, `two-factor authentication of ${target.username} was reset`)
        },
        { role: Role.admin, params: IdParams },
      ),
    )
}
