import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Online top-up orders (new-api's `top_ups`): one row per checkout, keyed by its trade number. The quota to
 * credit and the money to be paid are fixed when the order is made, so a later price change cannot alter a
 * pending order; a notify or webhook credits it once, by moving `status` from pending in one conditional UPDATE.
 */
export const topups = sqliteTable(
  'topups',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').notNull(),
    tradeNo: text('trade_no').notNull().unique(),
    amount: integer('amount').notNull().default(0), // what the user asked for: US$ units of quota (Creem: the product's quota)
    quota: integer('quota').notNull().default(0), // quota credited when paid
    moneyCents: integer('money_cents').notNull().default(0), // what the provider must report as paid, in the currency's minor unit
    currency: text('currency').notNull().default('USD'),
    paymentMethod: text('payment_method').notNull().default(''), // alipay, wxpay, stripe, creem…
    paymentProvider: text('payment_provider').notNull().default(''), // epay, stripe, creem, admin
    status: text('status').notNull().default('pending'), // pending, success, expired, failed
    providerRef: text('provider_ref').notNull().default(''), // the provider's id (Stripe session, Creem checkout, EPay trade_no)
    planId: integer('plan_id').notNull().default(0), // a subscription order: the plan it buys (0: a top-up)
    createTime: integer('create_time').notNull().default(sql`(unixepoch())`),
    completeTime: integer('complete_time').notNull().default(0),
  },
  (table) => [index('topups_user_idx').on(table.userId, table.id), index('topups_status_idx').on(table.status)],
)
