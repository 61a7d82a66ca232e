import { ruleOfKey, type AffinityCache, type AffinityCounts, type AffinityEntry } from '../affinity-types'
import type { RedisLink } from './link'

/** Keys one SCAN step asks for; a clear or a count walks the keyspace in such steps. */
const SCAN_BATCH = '500'

/**
 * Session pins in Redis, one string per session (`<prefix>aff:<rule>:<scope>` → `channel|keyFp`, with its TTL), so
 * every node sends a session's turns to the same channel and key. Redis bounds them by TTL; while Redis is away the
 * node's own bounded cache answers (`fallback`), and each write goes there too, so a node never loses a pin it made.
 */
export function createRedisAffinity(link: RedisLink, fallback: AffinityCache, prefix: string): AffinityCache {
  const base = `${prefix}aff:`

  /** Every key matching `pattern`, SCAN step by step, each batch handed to `each`. */
  async function scan(pattern: string, each: (keys: string[]) => Promise<void>): Promise<void> {
    let cursor = '0'
    do {
      const [next, keys] = (await link.send('SCAN', [cursor, 'MATCH', pattern, 'COUNT', SCAN_BATCH])) as [string, string[]]
      if (keys.length > 0) await each(keys)
      cursor = String(next)
    } while (cursor !== '0')
  }

  return {
    async get(key) {
      if (link.up) {
        const text = await link.send('GET', [base + key]).catch(() => undefined)
        if (text !== undefined) return parse(text)
      }
      return fallback.get(key)
    },
    set(key, entry, ttlMs, maxEntries) {
      fallback.set(key, entry, ttlMs, maxEntries)
      if (link.up) link.send('SET', [base + key, `${entry.channelId}|${entry.keyFp}`, 'PX', String(Math.max(1, Math.round(ttlMs)))]).catch(() => {})
    },
    async clear(rule) {
      const local = await fallback.clear(rule)
      if (!link.up) return local
      let removed = 0
      await scan(`${base}${rule === undefined ? '' : `${escapeGlob(rule)}:`}*`, async (keys) => {
        removed += Number(await link.send('UNLINK', keys))
      })
      return removed
    },
    async stats() {
      if (!link.up) return fallback.stats()
      const counts: AffinityCounts = { total: 0, byRule: {} }
      await scan(`${base}*`, async (keys) => {
        for (const key of keys) {
          const rule = ruleOfKey(key.slice(base.length))
          counts.total++
          counts.byRule[rule] = (counts.byRule[rule] ?? 0) + 1
        }
      })
      return counts
    },
  }
}

function parse(text: unknown): AffinityEntry | undefined {
  if (typeof text !== 'string') return undefined
  const bar = text.indexOf('|')
  const channelId = Number(text.slice(0, bar))
  return bar > 0 && Number.isSafeInteger(channelId) ? { channelId, keyFp: text.slice(bar + 1) } : undefined
}

/** A rule name taken literally in a SCAN pattern. */
const escapeGlob = (text: string): string => text.replace(/[*?[\]\\]/g, '\\$&')
