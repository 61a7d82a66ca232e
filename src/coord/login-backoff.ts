import type { LoginBackoff } from './types'

/** 2^40 s is far beyond any ceiling: the exponent stops there so the number stays finite */
const MAX_DOUBLINGS = 40

/**
 * The wait before the next attempt on a counter that has admitted `count` attempts, in ms: none while fewer than
 * `free`, then 1 s, 2 s, 4 s … up to `maxSeconds`. The Redis script (redis/scripts.ts) computes the same.
 */
export function loginWaitMs(count: number, free: number, backoff: LoginBackoff): number {
  if (count < free) return 0
  return Math.min(backoff.maxSeconds * 1000, 1000 * 2 ** Math.min(count - free, MAX_DOUBLINGS))
}

/** How long after an attempt its counter is kept: the wait it started, then `forgetSeconds` of quiet. */
export const loginKeepMs = (count: number, free: number, backoff: LoginBackoff): number => loginWaitMs(count, free, backoff) + backoff.forgetSeconds * 1000
