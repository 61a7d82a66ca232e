import { sql } from 'drizzle-orm'
import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

/**
 * Sign-in providers root defines as data (new-api's custom_oauth_providers, its `oauth_code` kind): the endpoints,
 * the scopes and where the account's id, name and e-mail are in the user-info answer. Users bind them as
 * `custom:<id>`; the client secret is sealed (crypto/secret-box.ts).
 */
export const customOAuthProviders = sqliteTable(
  'custom_oauth_providers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    // the URL's name: /oauth/<slug>, /api/oauth/<slug>
    slug: text('slug').notNull(),
    icon: text('icon').notNull().default(''),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(false),
    clientId: text('client_id').notNull(),
    // sealed ('v1:…'), never sent back
    clientSecret: text('client_secret').notNull().default(''),
    authorizationEndpoint: text('authorization_endpoint').notNull(),
    tokenEndpoint: text('token_endpoint').notNull(),
    userInfoEndpoint: text('user_info_endpoint').notNull(),
    scopes: text('scopes').notNull().default(''),
    userIdField: text('user_id_field').notNull().default('sub'),
    usernameField: text('username_field').notNull().default('preferred_username'),
    displayNameField: text('display_name_field').notNull().default('name'),
    emailField: text('email_field').notNull().default('email'),
    // 0 auto (Basic), 1 in the body, 2 Basic: new-api's auth_style
    authStyle: integer('auth_style').notNull().default(0),
    createdTime: integer('created_time').notNull().default(sql`(unixepoch())`),
    updatedTime: integer('updated_time').notNull().default(sql`(unixepoch())`),
  },
  (table) => [uniqueIndex('custom_oauth_providers_slug_idx').on(table.slug)],
)
