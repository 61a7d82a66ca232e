import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
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
    quota: integer('quota').notNull().default(0),
    usedQuota: integer('used_quota').notNull().default(0),
    requestCount: integer('request_count').notNull().default(0),
    affCode: text('aff_code').unique(),
    affCount: integer('aff_count').notNull().default(0),
    affQuota: integer('aff_quota').notNull().default(0),
    affHistoryQuota: integer('aff_history_quota').notNull().default(0),
    inviterId: integer('inviter_id').notNull().default(0),
    accessToken: text('access_token').unique(), // sha-256 of the management access token
    sessionVersion: integer('session_version').notNull().default(1), // bumped to revoke every session
    createdTime: integer('created_time').notNull().default(sql`(unixepoch())`),
  },
  (table) => [index('users_role_idx').on(table.role)],
)
