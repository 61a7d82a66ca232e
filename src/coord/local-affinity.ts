import { ruleOfKey, type AffinityCache, type AffinityCounts, type AffinityEntry } from './affinity-types'
import { createTtlLru } from './ttl-lru'

/**
 * Session pins in this process: a Map in least-recently-used order (a read moves an entry to the end), at most
 * `maxEntries` (the oldest go first), each entry dropped when read after its TTL.
 */
export function createLocalAffinity(clock: () => number = Date.now): AffinityCache & { size(): number } {
  const entries = createTtlLru<AffinityEntry>(clock)
  return {
    get: (key) => Promise.resolve(entries.get(key)),
    set: (key, entry, ttlMs, maxEntries) => entries.set(key, entry, ttlMs, maxEntries),
    clear(rule) {
      let removed = 0
      for (const key of entries.keys()) {
        if (rule !== undefined && ruleOfKey(key) !== rule) continue
        entries.delete(key)
        removed++
      }
      return Promise.resolve(removed)
    },
    stats() {
      const counts: AffinityCounts = { total: 0, byRule: {} }
      for (const key of entries.keys()) {
        counts.total++
        counts.byRule[ruleOfKey(key)] = (counts.byRule[ruleOfKey(key)] ?? 0) + 1
      }
      return Promise.resolve(counts)
    },
    size: entries.size,
  }
}
