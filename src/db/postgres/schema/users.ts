import { index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { nowSeconds, quotaAmount, unixSeconds } from './time'

/** src/db/schema/users.ts on PostgreSQL: the same columns, names and row type. */
export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    username: text('username').notNull().unique(),
    // its look-alike skeleton (modules/users/username-skeleton.ts): no second name may read the same; null only for
    // names that already read like another when the column came (or were imported so)
    usernameKey: text('username_key').unique(),
    password: text('password').notNull(), // argon2id hash from Bun.password
    displayName: text('display_name').notNull().default(''),
    role: integer('role').notNull().default(1),
    status: integer('status').notNull().default(1),
    email: text('email').notNull().default(''),
    group: text('group').notNull().default('default'),
    quota: quotaAmount('quota').notNull().default(0),
    usedQuota: quotaAmount('used_quota').notNull().default(0),
    requestCount: quotaAmount('request_count').notNull().default(0),
    affCode: text('aff_code').unique(),
    affCount: integer('aff_count').notNull().default(0),
    affQuota: quotaAmount('aff_quota').notNull().default(0),
    affHistoryQuota: quotaAmount('aff_history_quota').notNull().default(0),
    inviterId: integer('inviter_id').notNull().default(0),
    accessToken: text('access_token').unique(), // sha-256 of the management access token
    sessionVersion: integer('session_version').notNull().default(1), // bumped to revoke every session
    createdTime: unixSeconds('created_time').notNull().default(nowSeconds),
  },
  (table) => [index('users_role_idx').on(table.role)],
)
