import { boolean, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { nowSeconds, unixSeconds } from './time'

/** src/db/sqlite/schema/custom-oauth.ts on PostgreSQL: sign-in providers root defines as data. */
export const customOAuthProviders = pgTable(
  'custom_oauth_providers',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    icon: text('icon').notNull().default(''),
    enabled: boolean('enabled').notNull().default(false),
    clientId: text('client_id').notNull(),
    clientSecret: text('client_secret').notNull().default(''),
    authorizationEndpoint: text('authorization_endpoint').notNull(),
    tokenEndpoint: text('token_endpoint').notNull(),
    userInfoEndpoint: text('user_info_endpoint').notNull(),
    scopes: text('scopes').notNull().default(''),
    userIdField: text('user_id_field').notNull().default('sub'),
    usernameField: text('username_field').notNull().default('preferred_username'),
    displayNameField: text('display_name_field').notNull().default('name'),
    emailField: text('email_field').notNull().default('email'),
    authStyle: integer('auth_style').notNull().default(0),
    createdTime: unixSeconds('created_time').notNull().default(nowSeconds),
    updatedTime: unixSeconds('updated_time').notNull().default(nowSeconds),
  },
  (table) => [uniqueIndex('custom_oauth_providers_slug_idx').on(table.slug)],
)
