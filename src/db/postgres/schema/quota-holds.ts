import { bigint, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { quotaAmount } from './time'

/**
 * PostgreSQL only (SQLite's ledger holds reservations in its one process's memory), so not exported from
 * ./index.ts, the SQLite schema's twin. One row per reservation still running: what was taken from the user
 * (and from the token when `token_limited`), by which node, until when. The owning node renews `expires_at`;
 * once it passes, any node's sweep gives the amount back (postgres/repos/quota.ts, the functions of migration
 * 0002_quota_functions.sql).
 */
export const quotaHolds = pgTable(
  'quota_holds',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id').notNull(),
    tokenId: integer('token_id').notNull(),
    tokenLimited: boolean('token_limited').notNull(),
    amount: quotaAmount('amount').notNull(),
    nodeId: text('node_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('quota_holds_expires_idx').on(table.expiresAt), index('quota_holds_node_idx').on(table.nodeId)],
)
