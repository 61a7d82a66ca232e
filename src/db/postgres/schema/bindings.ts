import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { nowSeconds, unixSeconds } from './time'
import { users } from './users'

/** src/db/sqlite/schema/bindings.ts on PostgreSQL: the sign-in providers bound to a user. */
export const userBindings = pgTable(
  'user_bindings',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    externalId: text('external_id').notNull(),
    createdTime: unixSeconds('created_time').notNull().default(nowSeconds),
  },
  (table) => [uniqueIndex('user_bindings_identity_idx').on(table.provider, table.externalId), uniqueIndex('user_bindings_user_idx').on(table.userId, table.provider)],
)
