import { index, pgTable, text } from 'drizzle-orm/pg-core'
import { unixSeconds } from './time'

/** src/db/schema/sessions.ts on PostgreSQL: sessions ended by logout before their JWT expired. */
export const revokedSessions = pgTable(
  'revoked_sessions',
  {
    id: text('id').primaryKey(), // the session id: the JWT's `jti` claim
    expiresAt: unixSeconds('expires_at').notNull(),
  },
  (table) => [index('revoked_sessions_expires_idx').on(table.expiresAt)],
)
