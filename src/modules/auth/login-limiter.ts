import type { AppDeps } from '../../deps'
import { RateLimitError } from '../../errors'

const MAX_KEYS = 10_000

interface Window {
  count: number
  resetAt: number
}

/**
 * Failed-login counters per IP and per username, in memory and bounded: when full, expired windows go
 * first, then the oldest. Attempts are counted before the (slow) password check, so a parallel burst
 * cannot slip past the limit; a successful login takes its attempt back.
 */
export function createLoginLimiter(limit: () => number, windowSeconds: () => number, now = () => Date.now()) {
  const windows = new Map<string, Window>()

  function live(key: string, at: number): Window | undefined {
    const entry = windows.get(key)
    if (entry && entry.resetAt <= at) windows.delete(key)
    return entry && entry.resetAt > at ? entry : undefined
  }

  function makeRoom(at: number): void {
    if (windows.size < MAX_KEYS) return
    // windows are inserted in time order, so the expired ones sit at the front
    for (const [key, entry] of windows) {
      if (entry.resetAt > at) break
      windows.delete(key)
    }
    while (windows.size >= MAX_KEYS) windows.delete(windows.keys().next().value!)
  }

  return {
    /** Count one attempt for every key, or throw 429 when any key has used up its window. */
    attempt(keys: string[]): void {
      const at = now()
      for (const key of keys) {
        const entry = live(key, at)
        if (entry && entry.count >= limit()) {
          throw new RateLimitError('too many failed logins: try again later', (entry.resetAt - at) / 1000)
        }
      }
      for (const key of keys) {
        const entry = live(key, at)
        if (entry) entry.count++
        else {
          makeRoom(at)
          windows.set(key, { count: 1, resetAt: at + windowSeconds() * 1000 })
        }
      }
    },
    /** Take back the attempt of a login that succeeded. */
    forgive(keys: string[]): void {
      for (const key of keys) {
        const entry = windows.get(key)
        if (entry && --entry.count <= 0) windows.delete(key)
      }
    },
    size: () => windows.size,
  }
}

export type LoginLimiter = ReturnType<typeof createLoginLimiter>

const limiters = new WeakMap<AppDeps, LoginLimiter>()

/** One limiter per app, reading its limits from the live options. */
export function loginLimiter(deps: AppDeps): LoginLimiter {
  let limiter = limiters.get(deps)
  if (!limiter) {
    limiter = createLoginLimiter(
      () => deps.options.get<number>('LoginFailuresPerWindow'),
      () => deps.options.get<number>('LoginFailureWindowSeconds'),
    )
    limiters.set(deps, limiter)
  }
  return limiter
}
