import type { ResponseHome, ResponseHomes } from './response-home-types'
import { createTtlLru } from './ttl-lru'

/** Response homes in this process: bounded, least recently used first out, each dropped after its TTL. */
export function createLocalResponseHomes(clock: () => number = Date.now): ResponseHomes & { size(): number } {
  const entries = createTtlLru<ResponseHome>(clock)
  return {
    get: (id) => Promise.resolve(entries.get(id)),
    set: (id, home, ttlMs, maxEntries) => {
      entries.set(id, home, ttlMs, maxEntries)
      return Promise.resolve()
    },
    delete: (id) => void entries.delete(id),
    size: entries.size,
  }
}
