import type { WindowResult } from './types'

const MAX_KEYS = 10_000

interface Window {
  count: number
  resetAt: number
}

/**
 * Fixed windows of counted events per key (sign-ups per address), in memory and bounded. When full, expired
 * windows go first, then the oldest. `clock` in ms.
 */
export function createLocalWindows(clock: () => number = () => Date.now()) {
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
    hit(keys: string[], limit: number, windowSeconds: number): WindowResult {
      const at = clock()
      for (const key of keys) {
        const entry = live(key, at)
        if (entry && entry.count >= limit) return { ok: false, retryAfter: (entry.resetAt - at) / 1000 }
      }
      for (const key of keys) {
        const entry = live(key, at)
        if (entry) entry.count++
        else {
          makeRoom(at)
          windows.set(key, { count: 1, resetAt: at + windowSeconds * 1000 })
        }
      }
      return { ok: true }
    },
    size: () => windows.size,
  }
}
