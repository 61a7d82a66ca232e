import type { TokenRow } from './rows'

/**
 * The API keys relay auth reads from memory, by key hash (unknown hashes too, up to `maxUnknown`), with an index
 * by id so dropping one key never walks the whole cache. Both dialects' token repositories keep one: their writes
 * drop what they change, `forget…` drops what other nodes changed. `generation` moves with every drop, so a load
 * that was waiting on the database while something was dropped does not cache what it read (it may predate the drop).
 */
export function createKeyCache(maxUnknown = 10_000) {
  const byHash = new Map<string, TokenRow | null>()
  const hashById = new Map<number, string>()
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
    get: (hash: string): TokenRow | null | undefined => byHash.get(hash),
    byId(id: number): TokenRow | undefined {
      const hash = hashById.get(id)
      return (hash === undefined ? undefined : byHash.get(hash)) ?? undefined
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
      }
      if (row || byHash.size < maxUnknown) byHash.set(hash, row ?? null)
    },
    forgetId,
    /** A key hash a new key now has (it may be remembered as unknown). */
    forgetHash(hash: string): void {
      generation++
      byHash.delete(hash)
    },
    forgetUser(userId: number): void {
      generation++
      for (const [hash, row] of byHash) {
        if (row?.userId !== userId) continue
        byHash.delete(hash)
        hashById.delete(row.id)
      }
    },
    forgetAll(): void {
      generation++
      byHash.clear()
      hashById.clear()
    },
  }
}
