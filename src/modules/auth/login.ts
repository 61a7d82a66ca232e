import { loginError } from '../../coord'
import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { UnauthorizedError } from '../../errors'
import { UserStatus } from '../../db/repos/user-roles'
import { hashPassword, needsRehash, verifyPassword } from '../users/credentials'
import { takeHashTurn } from '../users/hash-queue'
import type { LoginBackoff, LoginKey, LoginTicket } from '../../coord/types'
import { loginKeys } from './login-keys'

export const LOGIN_FAILED = 'wrong username or password, or the user is disabled'

/**
 * Check credentials under the failed-login limiter: per account from this address and per address, each with
 * exponential backoff (login-keys.ts). Unknown users, wrong passwords and disabled users all take the same time
 * and get the same message.
 */
export async function login(deps: AppDeps, input: { username: string; password: string; ip: string }): Promise<UserRow> {
  const { options } = deps
  const user = await findLoginUser(deps.repos.users, input.username)
  const keys = loginKeys({ ...input, user, perAccount: options.get<number>('LoginFailuresPerAccount'), perAddress: options.get<number>('LoginFailuresPerAddress') })
  const backoff = { maxSeconds: options.get<number>('LoginBackoffMaxSeconds'), forgetSeconds: options.get<number>('LoginFailureWindowSeconds') }
  // a turn at argon2 first (503 when the queue is full, counting nothing), then the attempt is counted before the
  // (slow) check, so a parallel burst cannot slip past the limit; shared across nodes
  const turn = await takeHashTurn()
  const checked = await checkCounted(deps, keys, backoff, () => verifyPassword(input.password, user?.password, turn)).finally(() => turn.release())
  if (!user || !checked.valid || user.status !== UserStatus.enabled) throw new UnauthorizedError(LOGIN_FAILED, 'login_failed')
  await deps.coord.loginSucceeded(checked.ticket)
  // an imported new-api / one-api user's bcrypt hash becomes Tollgate's argon2id on the first good login; a plain
  // update, not setPassword: the session about to start carries this session_version and must stay valid
  if (needsRehash(user.password)) return (await deps.repos.users.update(user.id, { password: await hashPassword(input.password) })) ?? user
  return user
}

/**
 * The account a login names: by username, else (a name with an @) the one account with that e-mail address; an
 * address several accounts share names none of them.
 */
async function findLoginUser(users: AppDeps['repos']['users'], name: string): Promise<UserRow | undefined> {
  const byName = await users.findByUsername(name)
  if (byName || !name.includes('@')) return byName
  const byEmail = await users.findByEmail(name.trim(), 2)
  return byEmail.length === 1 ? byEmail[0] : undefined
}

/** Count the attempt (or throw the 429), then run the password check. */
async function checkCounted(deps: AppDeps, keys: LoginKey[], backoff: LoginBackoff, check: () => Promise<boolean>): Promise<{ valid: boolean; ticket: LoginTicket }> {
  const attempt = await deps.coord.loginAttempt(keys, backoff)
  if (!attempt.ok) throw loginError(attempt)
  return { valid: await check(), ticket: attempt.ticket }
}
