import { index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { nowSeconds, quotaAmount, unixSeconds } from './time'

/** src/db/schema/redemptions.ts on PostgreSQL: codes stored as SHA-256 only. */
export const redemptions = pgTable(
  'redemptions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id').notNull().default(0), // the admin who created it
    name: text('name').notNull().default(''),
    keyHash: text('key_hash').notNull().unique(),
    keyHint: text('key_hint').notNull().default(''),
    status: integer('status').notNull().default(1), // 1 enabled, 2 disabled, 3 used
    quota: quotaAmount('quota').notNull().default(0),
    createdTime: unixSeconds('created_time').notNull().default(nowSeconds),
    redeemedTime: unixSeconds('redeemed_time').notNull().default(0),
    usedUserId: integer('used_user_id').notNull().default(0),
    expiredTime: unixSeconds('expired_time').notNull().default(0), // 0 = never
  },
  (table) => [index('redemptions_name_idx').on(table.name), index('redemptions_status_idx').on(table.status)],
)
