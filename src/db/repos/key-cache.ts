import type { TokenRow } from './rows'

/**
 * The API keys relay auth reads from memory, by key hash, with an index by id so dropping one key never walks the
 * whole cache. Both dialects' token repositories keep one: their writes drop what they change, `forget…` drops
 * what other nodes changed. `generation` moves with every drop, so a load that was waiting on the database while
 * something was dropped does not cache what it read (it may predate the drop).
 *
 * Hashes that match no key are remembered too (a client retrying a revoked key costs no query), at most
 * `maxUnknown` of them, oldest out first: anyone can send made-up keys, and a flood of them must neither grow
 * memory nor pin the cache full of its own misses. Known keys are bounded by the tokens table.
 */
export function createKeyCache(maxUnknown = 10_000) {
  const byHash = new Map<string, TokenRow>()
  const hashById = new Map<number, string>()
  const unknown = new Set<string>()
  // the misses in arrival order, as a ring: a new one overwrites the oldest slot (Set iteration from the front
  // would skip every deleted entry first, ~45 µs per eviction at 10,000)
  const arrivals: (string | undefined)[] = new Array(maxUnknown)
  let cursor = 0
  let generation = 0

  const forgetId = (id: number): void => {
    generation++
    const hash = hashById.get(id)
    if (hash === undefined) return
    hashById.delete(id)
    byHash.delete(hash)
  }

  return {
    /** The row, null for a hash known to match no key, undefined when not in memory. */
    get: (hash: string): TokenRow | null | undefined => byHash.get(hash) ?? (unknown.has(hash) ? null : undefined),
    byId(id: number): TokenRow | undefined {
      const hash = hashById.get(id)
      return hash === undefined ? undefined : byHash.get(hash)
    },
    get generation(): number {
      return generation
    },
    /** What a load found for `hash` (a miss too), unless something was dropped since the load began (`since`). */
    remember(hash: string, row: TokenRow | undefined, since = generation): void {
      if (since !== generation) return
      if (row) {
        const old = hashById.get(row.id)
        if (old !== undefined && old !== hash) byHash.delete(old)
        hashById.set(row.id, hash)
        byHash.set(hash, row)
        unknown.delete(hash)
        return
      }
      if (unknown.has(hash) || maxUnknown <= 0) return
      const oldest = arrivals[cursor]
      // a slot whose hash was dropped meanwhile evicts nothing (or a later copy of it: early, never over the bound)
      if (oldest !== undefined) unknown.delete(oldest)
      arrivals[cursor] = hash
      cursor = (cursor + 1) % maxUnknown
      unknown.add(hash)
    },
    forgetId,
    /** A key hash a new key now has (it may be remembered as unknown). */
    forgetHash(hash: string): void {
      generation++
      byHash.delete(hash)
      unknown.delete(hash)
    },
    forgetUser(userId: number): void {
      generation++
      for (const [hash, row] of byHash) {
        if (row.userId !== userId) continue
        byHash.delete(hash)
        hashById.delete(row.id)
      }
    },
    forgetAll(): void {
      generation++
      byHash.clear()
      hashById.clear()
      unknown.clear()
      arrivals.fill(undefined)
    },
    /** hashes held: known keys, and unknown ones (at most `maxUnknown`) */
    get size(): { known: number; unknown: number } {
      return { known: byHash.size, unknown: unknown.size }
    },
  }
}
