import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './users'

export const tokens = sqliteTable(
  'tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull().unique(), // sha-256 hex of the 48-character key
    keyHint: text('key_hint').notNull(), // first and last four characters, for display
    name: text('name').notNull().default(''),
    status: integer('status').notNull().default(1),
    createdTime: integer('created_time').notNull().default(sql`(unixepoch())`),
    accessedTime: integer('accessed_time').notNull().default(0),
    expiredTime: integer('expired_time').notNull().default(-1),
    remainQuota: integer('remain_quota').notNull().default(0),
    unlimitedQuota: integer('unlimited_quota', { mode: 'boolean' }).notNull().default(false),
    usedQuota: integer('used_quota').notNull().default(0),
    modelLimitsEnabled: integer('model_limits_enabled', { mode: 'boolean' }).notNull().default(false),
    modelLimits: text('model_limits').notNull().default(''),
    allowIps: text('allow_ips').notNull().default(''),
    group: text('group').notNull().default(''),
  },
  (table) => [index('tokens_user_idx').on(table.userId)],
)
