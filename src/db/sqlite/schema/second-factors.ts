import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './users'

/** A user's TOTP: the secret sealed with the crypto secret (secret-box), enabled after one good code. */
export const twoFactors = sqliteTable(
  'two_factors',
  {
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(), // v1:<iv>:<ciphertext> of the base32 secret
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(false),
  lastStep: integer('last_step').notNull().default(0), // the last 30-second step accepted: a code is taken once
  createdAt: integer('created_at').notNull().default(sql`(unixepoch())`),
},
  (table) => [primaryKey({ columns: [table.userId] })],
)

/** Single-use backup codes, stored as keyed hashes (h1:) or, imported from new-api, as bcrypt hashes. */
export const backupCodes = sqliteTable(
  'two_factor_backup_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: integer('used_at'),
  },
  (table) => [index('two_factor_backup_codes_user_idx').on(table.userId)],
)

/** WebAuthn credentials (passkeys): ids and public keys in base64url, the signature counter kept current. */
export const passkeys = sqliteTable(
  'passkeys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull().unique(),
    publicKey: text('public_key').notNull(),
    counter: integer('counter').notNull().default(0),
    transports: text('transports').notNull().default('[]'), // JSON array of strings
    backedUp: integer('backed_up', { mode: 'boolean' }).notNull().default(false),
    name: text('name').notNull().default(''),
    createdAt: integer('created_at').notNull().default(sql`(unixepoch())`),
    lastUsedAt: integer('last_used_at').notNull().default(0),
  },
  (table) => [index('passkeys_user_idx').on(table.userId)],
)

/**
 * Short-lived, single-use server-side state shared by every node: a login waiting for its second factor, a
 * WebAuthn challenge. `id` is the sha-256 of the token the client holds (or of the challenge).
 */
export const authChallenges = sqliteTable(
  'auth_challenges',
  {
    id: text('id').primaryKey(),
    purpose: text('purpose').notNull(),
    userId: integer('user_id'),
    payload: text('payload').notNull().default(''),
    expiresAt: integer('expires_at').notNull(), // unix seconds
  },
  (table) => [index('auth_challenges_expires_idx').on(table.expiresAt)],
)
