import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Redemption codes. Only the SHA-256 of a code is stored (the code itself is shown once, at creation),
 * so a database leak does not leak spendable codes.
 */
export const redemptions = sqliteTable(
  'redemptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').notNull().default(0), // the admin who created it
    name: text('name').notNull().default(''),
    keyHash: text('key_hash').notNull().unique(),
    keyHint: text('key_hint').notNull().default(''),
    status: integer('status').notNull().default(1), // 1 enabled, 2 disabled, 3 used
    quota: integer('quota').notNull().default(0),
    createdTime: integer('created_time').notNull().default(sql`(unixepoch())`),
    redeemedTime: integer('redeemed_time').notNull().default(0),
    usedUserId: integer('used_user_id').notNull().default(0),
    expiredTime: integer('expired_time').notNull().default(0), // 0 = never
  },
  (table) => [index('redemptions_name_idx').on(table.name), index('redemptions_status_idx').on(table.status)],
)
