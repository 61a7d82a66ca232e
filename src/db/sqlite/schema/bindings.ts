import { sql } from 'drizzle-orm'
import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { users } from './users'

/**
 * The sign-in providers bound to a user (new-api's github_id, discord_id, oidc_id, linux_do_id, telegram_id and
 * wechat_id columns, and its custom OAuth bindings, as rows): one provider identity belongs to one user, a user
 * has at most one identity per provider.
 */
export const userBindings = sqliteTable(
  'user_bindings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // github, discord, oidc, linuxdo, telegram, wechat, or custom:<provider id>
    provider: text('provider').notNull(),
    // the provider's stable id of the account (GitHub's numeric id, OIDC's sub, …)
    externalId: text('external_id').notNull(),
    createdTime: integer('created_time').notNull().default(sql`(unixepoch())`),
  },
  (table) => [uniqueIndex('user_bindings_identity_idx').on(table.provider, table.externalId), uniqueIndex('user_bindings_user_idx').on(table.userId, table.provider)],
)
