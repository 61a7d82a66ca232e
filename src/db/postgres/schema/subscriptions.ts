import { boolean, index, integer, primaryKey, pgTable, text } from 'drizzle-orm/pg-core'
import { nowSeconds, quotaAmount, unixSeconds } from './time'

/** src/db/sqlite/schema/subscriptions.ts on PostgreSQL: plans, the plans users hold, and what pays first. */
export const subscriptionPlans = pgTable('subscription_plans', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  title: text('title').notNull(),
  subtitle: text('subtitle').notNull().default(''),
  priceCents: quotaAmount('price_cents').notNull().default(0),
  currency: text('currency').notNull().default('USD'),
  durationUnit: text('duration_unit').notNull().default('month'),
  durationValue: integer('duration_value').notNull().default(1),
  customSeconds: unixSeconds('custom_seconds').notNull().default(0),
  enabled: boolean('enabled').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
  stripePriceId: text('stripe_price_id').notNull().default(''),
  creemProductId: text('creem_product_id').notNull().default(''),
  maxPurchasePerUser: integer('max_purchase_per_user').notNull().default(0),
  totalAmount: quotaAmount('total_amount').notNull().default(0),
  quotaResetPeriod: text('quota_reset_period').notNull().default('never'),
  quotaResetCustomSeconds: unixSeconds('quota_reset_custom_seconds').notNull().default(0),
  models: text('models').notNull().default(''),
  groups: text('groups').notNull().default(''),
  upgradeGroup: text('upgrade_group').notNull().default(''), // the group a holder is moved to while the plan lasts ('' = none)
  createdAt: unixSeconds('created_at').notNull().default(nowSeconds),
  updatedAt: unixSeconds('updated_at').notNull().default(nowSeconds),
})

export const userSubscriptions = pgTable(
  'user_subscriptions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id').notNull(),
    planId: integer('plan_id').notNull(),
    amountTotal: quotaAmount('amount_total').notNull().default(0),
    amountUsed: quotaAmount('amount_used').notNull().default(0),
    startTime: unixSeconds('start_time').notNull(),
    endTime: unixSeconds('end_time').notNull(),
    status: text('status').notNull().default('active'),
    source: text('source').notNull().default('order'),
    lastResetTime: unixSeconds('last_reset_time').notNull().default(0),
    nextResetTime: unixSeconds('next_reset_time').notNull().default(0),
    tradeNo: text('trade_no').notNull().default(''),
    upgradeGroup: text('upgrade_group').notNull().default(''), // the plan's upgrade group when granted
    prevUserGroup: text('prev_user_group').notNull().default(''), // the group the plan's end gives back ('' = nothing to give back)
    createdAt: unixSeconds('created_at').notNull().default(nowSeconds),
    updatedAt: unixSeconds('updated_at').notNull().default(nowSeconds),
  },
  (table) => [index('user_subscriptions_user_idx').on(table.userId, table.endTime), index('user_subscriptions_plan_idx').on(table.planId, table.userId)],
)

export const billingPreferences = pgTable('billing_preferences', {
  userId: integer('user_id').notNull(),
  billingPreference: text('billing_preference').notNull().default('subscription_first'),
},
  // a table-level key: SQLite would make an INTEGER PRIMARY KEY column optional on insert (the rowid), PostgreSQL not
  (table) => [primaryKey({ columns: [table.userId] })],
)
