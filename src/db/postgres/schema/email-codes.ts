import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { unixSeconds } from './time'

/** src/db/sqlite/schema/email-codes.ts on PostgreSQL: codes and reset links sent by mail, hashed. */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    purpose: text('purpose').notNull(),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    userId: integer('user_id').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: unixSeconds('expires_at').notNull(),
  },
  (table) => [uniqueIndex('email_codes_purpose_email_idx').on(table.purpose, table.email), index('email_codes_expires_idx').on(table.expiresAt)],
)
