import { ruleOfKey, type AffinityCache, type AffinityCounts, type AffinityEntry } from './affinity-types'

interface Held {
  entry: AffinityEntry
  expiresAt: number
}

/**
 * Session pins in this process: a Map in least-recently-used order (a read moves an entry to the end), at most
 * `maxEntries` (the oldest go first), each entry dropped when read after its TTL.
 */
export function createLocalAffinity(clock: () => number = Date.now): AffinityCache & { size(): number } {
  const entries = new Map<string, Held>()

  function live(key: string): Held | undefined {
    const held = entries.get(key)
    if (!held) return undefined
    entries.delete(key)
    if (held.expiresAt <= clock()) return undefined
    entries.set(key, held) // most recently used now
    return held
  }

  function sweep(): void {
    const now = clock()
    for (const [key, held] of entries) if (held.expiresAt <= now) entries.delete(key)
  }

  return {
    get: (key) => Promise.resolve(live(key)?.entry),
    set(key, entry, ttlMs, maxEntries) {
      entries.delete(key)
      entries.set(key, { entry, expiresAt: clock() + ttlMs })
      if (entries.size <= maxEntries) return
      sweep()
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break
        entries.delete(oldest)
      }
    },
    clear(rule) {
      sweep()
      let removed = 0
      for (const key of [...entries.keys()]) {
        if (rule !== undefined && ruleOfKey(key) !== rule) continue
        entries.delete(key)
        removed++
      }
      return Promise.resolve(removed)
    },
    stats() {
      sweep()
      const counts: AffinityCounts = { total: entries.size, byRule: {} }
      for (const key of entries.keys()) counts.byRule[ruleOfKey(key)] = (counts.byRule[ruleOfKey(key)] ?? 0) + 1
      return Promise.resolve(counts)
    },
    size: () => entries.size,
  }
}
