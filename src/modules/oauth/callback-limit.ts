import { loginError } from '../../coord'
import type { LoginTicket } from '../../coord/types'
import type { AppDeps } from '../../deps'
import { addressGroup } from '../auth/login-keys'

/**
 * Every way in that is not a password (OAuth callbacks, Telegram's widget data, WeChat codes) counts on the login
 * limiter's per-address counter, with its backoff: failures make the address wait as failed passwords do. The
 * caller gives the attempt back with `coord.loginSucceeded(ticket)` once the user is signed in or bound.
 */
export async function admitCallback(deps: Pick<AppDeps, 'options' | 'coord'>, ip: string): Promise<LoginTicket> {
  const { options, coord } = deps
  const keys = [{ key: `addr:${addressGroup(ip)}`, free: options.get<number>('LoginFailuresPerAddress') }]
  const attempt = await coord.loginAttempt(keys, { maxSeconds: options.get<number>('LoginBackoffMaxSeconds'), forgetSeconds: options.get<number>('LoginFailureWindowSeconds') })
  if (!attempt.ok) throw loginError(attempt)
  return attempt.ticket
}
