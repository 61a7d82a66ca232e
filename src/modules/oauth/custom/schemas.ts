import { t } from 'elysia'
import type { CustomOAuthRow } from '../../../db/repos'

const Url = t.String({ maxLength: 512, pattern: '^https?://[^\\s]+$', error: 'must be an absolute http(s) URL' })
// a claim's path in the user-info JSON: `sub`, `id`, `data.user.id`
const ClaimPath = t.String({ maxLength: 128, pattern: '^[A-Za-z0-9_\\-]+(\\.[A-Za-z0-9_\\-]+){0,7}$', error: 'must be a claim name or a dotted path like data.user.id' })

/** The names a custom provider's slug may not take: the built-in providers and the other /api/oauth/* routes. */
export const RESERVED_SLUGS = new Set(['github', 'discord', 'linuxdo', 'oidc', 'telegram', 'wechat', 'state', 'email', 'custom'])

/** new-api's fields for an `oauth_code` provider; its other kinds (jwt_direct, trusted_header) are refused. */
export const CustomOAuthBody = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 64 }),
    slug: t.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9-]*$', error: 'must be lowercase letters, digits and hyphens' }),
    icon: t.Optional(t.String({ maxLength: 128 })),
    kind: t.Optional(t.Literal('oauth_code')),
    enabled: t.Optional(t.Boolean()),
    client_id: t.String({ minLength: 1, maxLength: 256 }),
    // on update: absent or '' keeps the stored secret
    client_secret: t.Optional(t.String({ maxLength: 512 })),
    authorization_endpoint: Url,
    token_endpoint: Url,
    user_info_endpoint: Url,
    scopes: t.Optional(t.String({ maxLength: 256 })),
    user_id_field: t.Optional(ClaimPath),
    username_field: t.Optional(t.Union([t.Literal(''), ClaimPath])),
    display_name_field: t.Optional(t.Union([t.Literal(''), ClaimPath])),
    email_field: t.Optional(t.Union([t.Literal(''), ClaimPath])),
    auth_style: t.Optional(t.Union([t.Literal(0), t.Literal(1), t.Literal(2)])),
  },
  // new-api's console sends the whole record (well_known, issuer, …): the rest is ignored
  { additionalProperties: true },
)
export type CustomOAuthInput = typeof CustomOAuthBody.static

/** A provider as the API shows it: everything but the secret, and whether one is stored. */
export function customOAuthView(row: CustomOAuthRow) {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    icon: row.icon,
    kind: 'oauth_code',
    enabled: row.enabled,
    client_id: row.clientId,
    client_secret_configured: row.clientSecret !== '',
    authorization_endpoint: row.authorizationEndpoint,
    token_endpoint: row.tokenEndpoint,
    user_info_endpoint: row.userInfoEndpoint,
    scopes: row.scopes,
    user_id_field: row.userIdField,
    username_field: row.usernameField,
    display_name_field: row.displayNameField,
    email_field: row.emailField,
    auth_style: row.authStyle,
    created_at: row.createdTime,
    updated_at: row.updatedTime,
  }
}
