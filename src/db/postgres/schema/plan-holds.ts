import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { quotaAmount, unixSeconds } from './time'

/**
 * PostgreSQL only, like quota_holds: one row per take of a held plan still running (what it took from the plan's period
 * that began at `period_start`, and what a limited key holds for the same request), by which node, until when. The
 * owning node renews `expires_at`; once it passes and the node is gone, any node's sweep gives both back
 * (postgres/repos/plan-holds.ts).
 */
export const planHolds = pgTable(
  'plan_holds',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    subscriptionId: integer('subscription_id').notNull(),
    periodStart: unixSeconds('period_start').notNull(),
    amount: quotaAmount('amount').notNull(),
    tokenId: integer('token_id').notNull().default(0),
    tokenAmount: quotaAmount('token_amount').notNull().default(0),
    nodeId: text('node_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('plan_holds_expires_idx').on(table.expiresAt)],
)
