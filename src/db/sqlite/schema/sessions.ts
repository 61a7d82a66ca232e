import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Management sessions ended by logout before their JWT expired. A row only matters until `expires_at`
 * (the JWT's own `exp`): after that the signature check refuses the cookie anyway, so the row is pruned.
 */
export const revokedSessions = sqliteTable(
  'revoked_sessions',
  {
    id: text('id').primaryKey(), // the session id: the JWT's `jti` claim
    expiresAt: integer('expires_at').notNull(), // unix seconds
  },
  (table) => [index('revoked_sessions_expires_idx').on(table.expiresAt)],
)
