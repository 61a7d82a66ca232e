import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Subscription plans (new-api's `subscription_plans`): what root sells. A plan's price is in `currency`'s minor unit
 * (`price_cents`, new-api's `price_amount` × 100); `total_amount` is the quota of one period (0 = no cap), renewed by
 * `quota_reset_period` (never, daily, weekly, monthly, custom); `models` and `groups` (comma lists, empty = all) are
 * what the plan pays for.
 */
export const subscriptionPlans = sqliteTable('subscription_plans', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  title: text('title').notNull(),
  subtitle: text('subtitle').notNull().default(''),
  priceCents: integer('price_cents').notNull().default(0),
  currency: text('currency').notNull().default('USD'),
  durationUnit: text('duration_unit').notNull().default('month'), // year, month, day, hour, custom
  durationValue: integer('duration_value').notNull().default(1),
  customSeconds: integer('custom_seconds').notNull().default(0),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
  stripePriceId: text('stripe_price_id').notNull().default(''),
  creemProductId: text('creem_product_id').notNull().default(''),
  maxPurchasePerUser: integer('max_purchase_per_user').notNull().default(0),
  totalAmount: integer('total_amount').notNull().default(0),
  quotaResetPeriod: text('quota_reset_period').notNull().default('never'),
  quotaResetCustomSeconds: integer('quota_reset_custom_seconds').notNull().default(0),
  models: text('models').notNull().default(''),
  groups: text('groups').notNull().default(''),
  upgradeGroup: text('upgrade_group').notNull().default(''), // the group a holder is moved to while the plan lasts ('' = none)
  createdAt: integer('created_at').notNull().default(sql`(unixepoch())`),
  updatedAt: integer('updated_at').notNull().default(sql`(unixepoch())`),
})

/**
 * A plan a user holds (new-api's `user_subscriptions`): from `start_time` to `end_time`, `amount_used` of
 * `amount_total` spent in the period that began at `last_reset_time`. The period is computed from the clock when the
 * plan is spent, never by a sweeper: a spend in a later period starts it at zero (metering/subscriptions.ts).
 */
export const userSubscriptions = sqliteTable(
  'user_subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').notNull(),
    planId: integer('plan_id').notNull(),
    amountTotal: integer('amount_total').notNull().default(0),
    amountUsed: integer('amount_used').notNull().default(0),
    startTime: integer('start_time').notNull(),
    endTime: integer('end_time').notNull(),
    status: text('status').notNull().default('active'), // active, cancelled, expired (marked by the sweep for a plan that raised its holder's group)
    source: text('source').notNull().default('order'), // order, admin, import
    lastResetTime: integer('last_reset_time').notNull().default(0),
    nextResetTime: integer('next_reset_time').notNull().default(0),
    tradeNo: text('trade_no').notNull().default(''),
    upgradeGroup: text('upgrade_group').notNull().default(''), // the plan's upgrade group when granted
    prevUserGroup: text('prev_user_group').notNull().default(''), // the group the plan's end gives back ('' = nothing to give back)
    createdAt: integer('created_at').notNull().default(sql`(unixepoch())`),
    updatedAt: integer('updated_at').notNull().default(sql`(unixepoch())`),
  },
  (table) => [index('user_subscriptions_user_idx').on(table.userId, table.endTime), index('user_subscriptions_plan_idx').on(table.planId, table.userId)],
)

/** A user's choice of what pays first (new-api keeps it in the user's settings as `billing_preference`). */
export const billingPreferences = sqliteTable('billing_preferences', {
  userId: integer('user_id').notNull(),
  billingPreference: text('billing_preference').notNull().default('subscription_first'),
},
  // a table-level key: SQLite would make an INTEGER PRIMARY KEY column optional on insert (the rowid), PostgreSQL not
  (table) => [primaryKey({ columns: [table.userId] })],
)
