import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { nowSeconds, quotaAmount, unixSeconds } from './time'
import { users } from './users'

/** src/db/schema/tokens.ts on PostgreSQL. */
export const tokens = pgTable(
  'tokens',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull().unique(), // sha-256 hex of the 48-character key
    keyHint: text('key_hint').notNull(), // first and last four characters, for display
    name: text('name').notNull().default(''),
    status: integer('status').notNull().default(1),
    createdTime: unixSeconds('created_time').notNull().default(nowSeconds),
    accessedTime: unixSeconds('accessed_time').notNull().default(0),
    expiredTime: unixSeconds('expired_time').notNull().default(-1),
    remainQuota: quotaAmount('remain_quota').notNull().default(0),
    unlimitedQuota: boolean('unlimited_quota').notNull().default(false),
    usedQuota: quotaAmount('used_quota').notNull().default(0),
    modelLimitsEnabled: boolean('model_limits_enabled').notNull().default(false),
    modelLimits: text('model_limits').notNull().default(''),
    allowIps: text('allow_ips').notNull().default(''),
    group: text('group').notNull().default(''),
  },
  (table) => [index('tokens_user_idx').on(table.userId)],
)
