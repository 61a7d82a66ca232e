/** Where a session was last served: its channel and its key (a fingerprint, never the key). */
export interface AffinityEntry {
  channelId: number
  /** sha256 of the key, first 16 hex digits: the key survives a reorder of the channel's keys */
  keyFp: string
}

/** What `stats` counts: every live entry, and per rule (the client kind that named the session). */
export interface AffinityCounts {
  total: number
  byRule: Record<string, number>
}

/**
 * Session pins shared by the nodes (coord (h)): `rule:scope` → entry, each with a TTL. Redis keeps them for every
 * node (a TTL per key); one node keeps at most `maxEntries`, the least recently used going first. Every method
 * answers even when Redis is away (from this node's own entries).
 */
export interface AffinityCache {
  get(key: string): Promise<AffinityEntry | undefined>
  /** fire and forget: a pin that cannot be written is only a cache miss later */
  set(key: string, entry: AffinityEntry, ttlMs: number, maxEntries: number): void
  /** entries removed: all, or those of one rule */
  clear(rule?: string): Promise<number>
  stats(): Promise<AffinityCounts>
}

/** The rule part of a cache key (`rule:scope`). */
export const ruleOfKey = (key: string): string => key.slice(0, Math.max(0, key.indexOf(':')))
