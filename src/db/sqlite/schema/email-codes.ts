import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

/**
 * Codes and links sent by mail (a registration's verification code, a password reset's token): one live row per
 * purpose and address, the secret only as its HMAC. Kept in the database so every node checks the same row and a
 * restart forgets none; a row goes when used, replaced, or found expired by the next issue.
 */
export const emailCodes = sqliteTable(
  'email_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    purpose: text('purpose').notNull(), // 'register' | 'reset'
    email: text('email').notNull(), // lower-cased
    codeHash: text('code_hash').notNull(), // HMAC-SHA-256 of the code with the crypto secret
    userId: integer('user_id').notNull().default(0), // the account a reset link is for
    attempts: integer('attempts').notNull().default(0),
    expiresAt: integer('expires_at').notNull(), // unix seconds
  },
  (table) => [uniqueIndex('email_codes_purpose_email_idx').on(table.purpose, table.email), index('email_codes_expires_idx').on(table.expiresAt)],
)
