import { loginError } from '../../coord'
import type { LoginKey } from '../../coord/types'
import type { AppDeps } from '../../deps'
import { addressGroup } from '../auth/login-keys'
import { wrongCode } from './errors'

/**
 * The counters a code attempt is kept on, under the login limiter's backoff: the account from this address, the
 * account from anywhere (a thief with the password may change addresses; a 6-digit code must not fall to a
 * spread-out guess), and the address across accounts, which password logins share.
 */
function codeKeys(userId: number, ip: string, perAccount: number, perAddress: number): LoginKey[] {
  const address = addressGroup(ip)
  return [
    { key: `2fa:u${userId}|${address}`, free: perAccount },
    { key: `2fa:u${userId}`, free: perAccount * 2 },
    { key: `addr:${address}`, free: perAddress },
  ]
}

/** Run a second-factor check under the login limits: 429 while waiting, the attempt counted before the check. */
export async function countedCodeCheck<T>(deps: Pick<AppDeps, 'coord' | 'options'>, userId: number, ip: string, check: () => Promise<T | null>): Promise<T> {
  const { options } = deps
  const keys = codeKeys(userId, ip, options.get<number>('LoginFailuresPerAccount'), options.get<number>('LoginFailuresPerAddress'))
  const backoff = { maxSeconds: options.get<number>('LoginBackoffMaxSeconds'), forgetSeconds: options.get<number>('LoginFailureWindowSeconds') }
  const attempt = await deps.coord.loginAttempt(keys, backoff)
  if (!attempt.ok) throw loginError(attempt)
  const result = await check()
  if (result === null) throw wrongCode()
  await deps.coord.loginSucceeded(attempt.ticket)
  return result
}
