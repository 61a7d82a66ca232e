import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { UserStatus } from '../../db/repos/user-roles'
import { peekChallenge, putChallenge, takeChallenge } from './challenges'
import { countedCodeCheck } from './code-attempts'
import { factorError } from './errors'
import { factorDeps } from './factor-deps'
import { consumeSecondFactor, type FactorUsed } from './twofa-service'

const PURPOSE = 'login_2fa'
/** how long a right password waits for its code */
export const LOGIN_FLOW_SECONDS = 300

const flowExpired = () => factorError(401, 'twofa_flow_expired', 'the sign-in waiting for a code has expired: log in again')

/** A right password for a user with 2FA: the token the second step must bring back (body or cookie). */
export async function startTwoFactorLogin(deps: Pick<AppDeps, 'repos' | 'secrets'>, user: UserRow, nowMs: number): Promise<string> {
  return putChallenge(factorDeps(deps).factors, { purpose: PURPOSE, userId: user.id, payload: { sv: user.sessionVersion }, seconds: LOGIN_FLOW_SECONDS, nowMs })
}

/**
 * The second step: the code (or a backup code) under the login limits, then the flow is spent. A password change
 * or a disabled account since the first step ends the flow.
 */
export async function finishTwoFactorLogin(deps: AppDeps, input: { token: string; code: string; ip: string; nowMs: number }): Promise<{ user: UserRow; used: FactorUsed }> {
  const factors = factorDeps(deps)
  const flow = await peekChallenge<{ sv: number }>(factors.factors, input.token, PURPOSE, input.nowMs)
  const user = flow?.userId ? await deps.repos.users.findById(flow.userId) : undefined
  if (!flow || !user || user.status !== UserStatus.enabled || user.sessionVersion !== flow.payload.sv) throw flowExpired()
  const used = await countedCodeCheck(deps, user.id, input.ip, () => consumeSecondFactor(factors, user.id, input.code, input.nowMs))
  if (!(await takeChallenge(factors.factors, input.token, PURPOSE, input.nowMs))) throw flowExpired()
  return { user, used }
}
