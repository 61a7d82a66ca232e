interface Held<T> {
  value: T
  expiresAt: number
}

/**
 * A Map in least-recently-used order (a read moves an entry to the end), at most `maxEntries` per `set` (the oldest
 * go first), each entry dropped when read after its TTL: what one node keeps for the shared caches while Redis is
 * away (session pins, response homes).
 */
export function createTtlLru<T>(clock: () => number) {
  const entries = new Map<string, Held<T>>()

  function sweep(): void {
    const now = clock()
    for (const [key, held] of entries) if (held.expiresAt <= now) entries.delete(key)
  }

  return {
    get(key: string): T | undefined {
      const held = entries.get(key)
      if (!held) return undefined
      entries.delete(key)
      if (held.expiresAt <= clock()) return undefined
      entries.set(key, held) // most recently used now
      return held.value
    },
    set(key: string, value: T, ttlMs: number, maxEntries: number): void {
      entries.delete(key)
      entries.set(key, { value, expiresAt: clock() + ttlMs })
      if (entries.size <= maxEntries) return
      sweep()
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break
        entries.delete(oldest)
      }
    },
    delete: (key: string): boolean => entries.delete(key),
    /** the live keys (expired ones swept first) */
    keys(): string[] {
      sweep()
      return [...entries.keys()]
    },
    size: (): number => entries.size,
  }
}
