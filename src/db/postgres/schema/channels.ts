import { boolean, doublePrecision, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { nowSeconds, quotaAmount, unixSeconds } from './time'

/**
 * src/db/schema/channels.ts on PostgreSQL. `model_mapping`, `other` and `setting` hold JSON but stay text:
 * they are read whole and parsed in memory once per channel write, '' means "none" (not valid JSON), and
 * jsonb would rewrite what the admin typed (key order, spacing) and change the row type.
 */
export const channels = pgTable(
  'channels',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    type: integer('type').notNull(),
    name: text('name').notNull(),
    key: text('key').notNull(), // AES-GCM ciphertext of the newline-separated keys, never plaintext
    baseUrl: text('base_url').notNull().default(''),
    models: text('models').notNull().default(''),
    group: text('group').notNull().default('default'),
    priority: integer('priority').notNull().default(0),
    weight: integer('weight').notNull().default(1),
    tag: text('tag').notNull().default(''),
    status: integer('status').notNull().default(1), // 1 enabled, 2 manually disabled, 3 auto disabled
    modelMapping: text('model_mapping').notNull().default(''),
    testModel: text('test_model').notNull().default(''),
    autoBan: integer('auto_ban').notNull().default(1),
    other: text('other').notNull().default(''),
    setting: text('setting').notNull().default(''),
    /** new-api's `settings` JSON (its other settings): the upstream model check's switches and findings (modules/channels/upstream-settings.ts) */
    settings: text('settings').notNull().default(''),
    /** new-api's per-channel overrides (JSON text, '' = none): the body's operations, headers, upstream statuses read as others (relay/overrides) */
    paramOverride: text('param_override').notNull().default(''),
    headerOverride: text('header_override').notNull().default(''),
    statusCodeMapping: text('status_code_mapping').notNull().default(''),
    usedQuota: quotaAmount('used_quota').notNull().default(0),
    responseTime: integer('response_time').notNull().default(0),
    testTime: unixSeconds('test_time').notNull().default(0),
    /** the last test's failure as JSON (code, status, method, url, message); '' when it passed or never ran */
    testError: text('test_error').notNull().default(''),
    /** the vendor account's balance as its billing endpoint last said (US$, new-api's `balance`), and when (unix s; 0 never) */
    balance: doublePrecision('balance').notNull().default(0),
    balanceUpdatedTime: unixSeconds('balance_updated_time').notNull().default(0),
    createdTime: unixSeconds('created_time').notNull().default(nowSeconds),
  },
  (table) => [index('channels_tag_idx').on(table.tag)],
)

/** The routing index: one row per (group, model, channel), kept in step with channel writes. */
export const abilities = pgTable(
  'abilities',
  {
    group: text('group').notNull(),
    model: text('model').notNull(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull().default(true),
    priority: integer('priority').notNull().default(0),
    weight: integer('weight').notNull().default(1),
    tag: text('tag').notNull().default(''),
  },
  (table) => [primaryKey({ columns: [table.group, table.model, table.channelId] }), index('abilities_channel_idx').on(table.channelId)],
)
