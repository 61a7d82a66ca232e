import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import type { CookieTarget } from '../../plugins/session'
import { factorDeps } from './factor-deps'
import { LOGIN_FLOW_SECONDS, startTwoFactorLogin } from './login-flow'
import { twoFactorEnabled } from './twofa-service'

/** The pending sign-in's token, for consoles that post only `{code}` to /api/user/login/2fa (as new-api's did). */
export const TWOFA_FLOW_COOKIE = 'tollgate_2fa'

/**
 * After a right password: for a user with 2FA, new-api's answer (`data.require_2fa`) with the flow token, also set
 * as a cookie scoped to the login path; nothing (start the session) otherwise.
 */
export async function secondStepIfNeeded(deps: Pick<AppDeps, 'repos' | 'secrets'>, user: UserRow, cookie: CookieTarget, secure: boolean, nowMs: number) {
  if (!(await twoFactorEnabled(factorDeps(deps), user.id))) return undefined
  const token = await startTwoFactorLogin(deps, user, nowMs)
  cookie.set({ value: token, httpOnly: true, sameSite: 'strict', secure, path: '/api/user/login', maxAge: LOGIN_FLOW_SECONDS })
  return { require_2fa: true as const, flow_token: token }
}
