import { loginKeepMs, loginWaitMs } from './login-backoff'
import type { LoginBackoff, LoginKey, LoginResult, LoginTicket } from './types'

const MAX_KEYS = 10_000

interface Counter {
  /** attempts admitted and not taken back */
  count: number
  /** the last admitted attempt (ms) */
  last: number
  /** forgotten after this (ms) */
  expiresAt: number
}

/**
 * Failed-login counters with exponential backoff (`login-backoff.ts`), in memory and bounded: the rules of the
 * login limiter (`modules/auth/login.ts`). A counter moves to the back of the map on every attempt; when full,
 * expired counters go first, then the least recently tried. `clock` in ms.
 */
export function createLocalLogin(clock: () => number = () => Date.now()) {
  const counters = new Map<string, Counter>()

  function live(key: string, at: number): Counter | undefined {
    const entry = counters.get(key)
    if (entry && entry.expiresAt <= at) counters.delete(key)
    return entry && entry.expiresAt > at ? entry : undefined
  }

  function makeRoom(): void {
    if (counters.size < MAX_KEYS) return
    const at = clock()
    for (const [key, entry] of counters) if (entry.expiresAt <= at) counters.delete(key)
    while (counters.size >= MAX_KEYS) counters.delete(counters.keys().next().value!)
  }

  return {
    attempt(keys: LoginKey[], backoff: LoginBackoff): LoginResult {
      const at = clock()
      let wait = 0
      for (const { key, free } of keys) {
        const entry = live(key, at)
        if (entry) wait = Math.max(wait, entry.last + loginWaitMs(entry.count, free, backoff) - at)
      }
      if (wait > 0) return { ok: false, retryAfter: wait / 1000 }
      const previous = keys.map(({ key, free }) => {
        const entry = live(key, at) ?? { count: 0, last: 0, expiresAt: 0 }
        const before = entry.last
        counters.delete(key)
        makeRoom()
        entry.count++
        entry.last = at
        entry.expiresAt = at + loginKeepMs(entry.count, free, backoff)
        counters.set(key, entry)
        return before
      })
      return { ok: true, ticket: { keys: keys.map((k) => k.key), at, previous } }
    },
    succeeded(ticket: LoginTicket): void {
      const [account, ...others] = ticket.keys
      counters.delete(account!)
      others.forEach((key, i) => {
        const entry = counters.get(key)
        if (!entry) return
        if (--entry.count <= 0) return void counters.delete(key)
        // the wait this attempt started is undone, unless a later attempt has started its own
        if (entry.last === ticket.at) entry.last = ticket.previous[i + 1]!
      })
    },
    size: () => counters.size,
  }
}
