import type { Database } from 'bun:sqlite'

/** The quota ledger's pending moves as plain data: what one batch adds to each row. */
export interface LedgerDeltas {
  /** [user id, quota, used_quota, request_count] */
  users: [number, number, number, number][]
  /** [token id, remain_quota, used_quota, accessed_time (the latest)] */
  tokens: [number, number, number, number][]
  /** [channel id, used_quota] */
  channels: [number, number][]
}

/**
 * The ledger's deltas as additive UPDATEs, inside the caller's transaction. No Drizzle here, so the metering
 * writer thread can use it with its own connection.
 */
export function createDeltaWriter(sqlite: Database): (deltas: LedgerDeltas) => void {
  const user = sqlite.prepare('UPDATE users SET quota = quota + ?2, used_quota = used_quota + ?3, request_count = request_count + ?4 WHERE id = ?1')
  const token = sqlite.prepare(
    'UPDATE tokens SET remain_quota = remain_quota + ?2, used_quota = used_quota + ?3, accessed_time = max(accessed_time, ?4) WHERE id = ?1',
  )
  const channel = sqlite.prepare('UPDATE channels SET used_quota = used_quota + ?2 WHERE id = ?1')
  return (deltas) => {
    for (const d of deltas.users) user.run(...d)
    for (const d of deltas.tokens) token.run(...d)
    for (const d of deltas.channels) channel.run(...d)
  }
}
