import { sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const options = sqliteTable('options', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
})
