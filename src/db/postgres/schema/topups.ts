import { index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { nowSeconds, quotaAmount, unixSeconds } from './time'

/** src/db/sqlite/schema/topups.ts on PostgreSQL: online top-up orders, credited once by their trade number. */
export const topups = pgTable(
  'topups',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id').notNull(),
    tradeNo: text('trade_no').notNull().unique(),
    amount: quotaAmount('amount').notNull().default(0),
    quota: quotaAmount('quota').notNull().default(0),
    moneyCents: quotaAmount('money_cents').notNull().default(0),
    currency: text('currency').notNull().default('USD'),
    paymentMethod: text('payment_method').notNull().default(''),
    paymentProvider: text('payment_provider').notNull().default(''),
    status: text('status').notNull().default('pending'),
    providerRef: text('provider_ref').notNull().default(''),
    planId: integer('plan_id').notNull().default(0),
    createTime: unixSeconds('create_time').notNull().default(nowSeconds),
    completeTime: unixSeconds('complete_time').notNull().default(0),
  },
  (table) => [index('topups_user_idx').on(table.userId, table.id), index('topups_status_idx').on(table.status)],
)
