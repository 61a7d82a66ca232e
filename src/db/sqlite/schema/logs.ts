import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** Usage and audit rows. No foreign keys: a log outlives the user, token or channel it names. */
export const logs = sqliteTable(
  'logs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    createdAt: integer('created_at').notNull().default(sql`(unixepoch())`),
    type: integer('type').notNull(), // 1 top-up, 2 consume, 3 manage, 4 system, 5 error
    userId: integer('user_id').notNull().default(0),
    username: text('username').notNull().default(''),
    tokenId: integer('token_id').notNull().default(0),
    tokenName: text('token_name').notNull().default(''),
    modelName: text('model_name').notNull().default(''),
    upstreamModel: text('upstream_model').notNull().default(''),
    channelId: integer('channel_id').notNull().default(0),
    group: text('group').notNull().default(''),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    cacheReadTokens: integer('cache_read_tokens').notNull().default(0),
    cacheWriteTokens: integer('cache_write_tokens').notNull().default(0),
    reasoningTokens: integer('reasoning_tokens').notNull().default(0),
    quota: integer('quota').notNull().default(0),
    useTimeMs: integer('use_time_ms').notNull().default(0),
    firstTokenMs: integer('first_token_ms').notNull().default(0),
    isStream: integer('is_stream', { mode: 'boolean' }).notNull().default(false),
    statusCode: integer('status_code').notNull().default(0),
    ip: text('ip').notNull().default(''),
    requestId: text('request_id').notNull().default(''),
    content: text('content').notNull().default(''),
    other: text('other').notNull().default(''), // JSON: retry path, warnings, price snapshot
  },
  (table) => [
    index('logs_created_idx').on(table.createdAt),
    index('logs_user_created_idx').on(table.userId, table.createdAt),
    index('logs_type_created_idx').on(table.type, table.createdAt),
    index('logs_model_created_idx').on(table.modelName, table.createdAt),
    index('logs_token_name_created_idx').on(table.tokenName, table.createdAt),
    index('logs_channel_created_idx').on(table.channelId, table.createdAt),
    index('logs_request_idx').on(table.requestId),
  ],
)

/**
 * Hourly usage per user and model, for dashboards. Upserted in the same transaction as the log rows it
 * sums, so charts never disagree with logs, and they outlive log retention.
 */
export const usageHourly = sqliteTable(
  'usage_hourly',
  {
    userId: integer('user_id').notNull(),
    username: text('username').notNull().default(''),
    modelName: text('model_name').notNull(),
    hour: integer('hour').notNull(), // unix seconds at the start of the hour
    count: integer('count').notNull().default(0),
    quota: integer('quota').notNull().default(0),
    tokenUsed: integer('token_used').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.modelName, table.hour] }), index('usage_hourly_hour_idx').on(table.hour)],
)

/**
 * Hourly usage per model over all users: the everyone-wide dashboard and the all-time stat read a few rows
 * per hour here instead of summing every user's. Written with `usage_hourly`, in the same transaction.
 */
export const usageHourlyModel = sqliteTable(
  'usage_hourly_model',
  {
    hour: integer('hour').notNull(), // unix seconds at the start of the hour
    modelName: text('model_name').notNull(),
    count: integer('count').notNull().default(0),
    quota: integer('quota').notNull().default(0),
    tokenUsed: integer('token_used').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.hour, table.modelName] })],
)
