import { boolean, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { nowSeconds, unixSeconds } from './time'
import { users } from './users'

/** src/db/sqlite/schema/second-factors.ts on PostgreSQL: TOTP, backup codes, passkeys, auth challenges. */
export const twoFactors = pgTable(
  'two_factors',
  {
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  enabled: boolean('enabled').notNull().default(false),
  lastStep: unixSeconds('last_step').notNull().default(0),
  createdAt: unixSeconds('created_at').notNull().default(nowSeconds),
},
  (table) => [primaryKey({ columns: [table.userId] })],
)

export const backupCodes = pgTable(
  'two_factor_backup_codes',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: unixSeconds('used_at'),
  },
  (table) => [index('two_factor_backup_codes_user_idx').on(table.userId)],
)

export const passkeys = pgTable(
  'passkeys',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull().unique(),
    publicKey: text('public_key').notNull(),
    counter: unixSeconds('counter').notNull().default(0),
    transports: text('transports').notNull().default('[]'),
    backedUp: boolean('backed_up').notNull().default(false),
    name: text('name').notNull().default(''),
    createdAt: unixSeconds('created_at').notNull().default(nowSeconds),
    lastUsedAt: unixSeconds('last_used_at').notNull().default(0),
  },
  (table) => [index('passkeys_user_idx').on(table.userId)],
)

export const authChallenges = pgTable(
  'auth_challenges',
  {
    id: text('id').primaryKey(),
    purpose: text('purpose').notNull(),
    userId: integer('user_id'),
    payload: text('payload').notNull().default(''),
    expiresAt: unixSeconds('expires_at').notNull(),
  },
  (table) => [index('auth_challenges_expires_idx').on(table.expiresAt)],
)
