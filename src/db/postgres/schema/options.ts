import { pgTable, text } from 'drizzle-orm/pg-core'

/** src/db/schema/options.ts on PostgreSQL. Values stay text: the option store parses each by its own type. */
export const options = pgTable('options', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
})
