import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { nowSeconds, quotaAmount, unixSeconds } from './time'
import { users } from './users'

/** src/db/sqlite/schema/notify-settings.ts on PostgreSQL: a user's notification settings. */
export const userNotifySettings = pgTable(
  'user_notify_settings',
  {
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  notifyType: text('notify_type').notNull().default('email'),
  quotaWarningThreshold: quotaAmount('quota_warning_threshold').notNull().default(0),
  webhookUrl: text('webhook_url').notNull().default(''),
  webhookSecret: text('webhook_secret').notNull().default(''),
  notificationEmail: text('notification_email').notNull().default(''),
  updatedTime: unixSeconds('updated_time').notNull().default(nowSeconds),
},
  (table) => [primaryKey({ columns: [table.userId] })],
)
