import { sql } from 'drizzle-orm'
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './users'

/**
 * A user's notification settings (new-api's user `setting` JSON: notify_type, quota_warning_threshold, webhook_url,
 * webhook_secret, notification_email), one row per user who saved them; no row: e-mail to the account's address at
 * the QuotaRemindThreshold option.
 */
export const userNotifySettings = sqliteTable(
  'user_notify_settings',
  {
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  notifyType: text('notify_type').notNull().default('email'), // email | webhook
  quotaWarningThreshold: integer('quota_warning_threshold').notNull().default(0), // quota units; 0 = QuotaRemindThreshold
  webhookUrl: text('webhook_url').notNull().default(''),
  webhookSecret: text('webhook_secret').notNull().default(''), // v1:<iv>:<ciphertext> (secret-box), '' = unsigned
  notificationEmail: text('notification_email').notNull().default(''), // '' = the account's e-mail
  updatedTime: integer('updated_time').notNull().default(sql`(unixepoch())`),
},
  // a key of the table, not the column's: a column key would make user_id optional on insert (SQLite's rowid)
  (table) => [primaryKey({ columns: [table.userId] })],
)
