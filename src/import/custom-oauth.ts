import { Value } from '@sinclair/typebox/value'
import type { SecretBox } from '../crypto/secret-box'
import type { ImportRepo } from '../db/repos'
import type { CustomOAuthFields } from '../db/repos/custom-oauth'
import { CustomOAuthBody, RESERVED_SLUGS } from '../modules/oauth/custom/schemas'
import type { SourceSchema } from './detect-schema'
import type { Source, SourceRow } from './read-source'
import type { Report } from './report'
import { bool, int, text } from './values'

const PROVIDERS = 'custom_oauth_providers'
const BINDINGS = 'user_oauth_bindings'

/** new-api's row as the API's body, checked by the very schema `POST /api/custom-oauth-provider/` uses. */
function bodyOf(row: SourceRow) {
  const authStyle = int(row.auth_style)
  return {
    name: text(row.name).trim(),
    slug: text(row.slug).trim().toLowerCase(),
    icon: text(row.icon),
    kind: text(row.kind).trim() || 'oauth_code',
    enabled: bool(row.enabled),
    client_id: text(row.client_id).trim(),
    authorization_endpoint: text(row.authorization_endpoint).trim(),
    token_endpoint: text(row.token_endpoint).trim(),
    user_info_endpoint: text(row.user_info_endpoint).trim(),
    scopes: text(row.scopes),
    user_id_field: text(row.user_id_field) || 'sub',
    username_field: text(row.username_field),
    display_name_field: text(row.display_name_field),
    email_field: text(row.email_field),
    auth_style: authStyle === 1 || authStyle === 2 ? authStyle : 0,
  }
}

/** One provider's fields, or why it stays behind. */
async function fieldsOf(row: SourceRow, box: SecretBox): Promise<CustomOAuthFields | string> {
  const body = bodyOf(row)
  if (body.kind !== 'oauth_code') return `a ${body.kind} provider: Tollgate has only the oauth_code kind`
  if (!Value.Check(CustomOAuthBody, body)) return `not a valid provider for Tollgate (${[...Value.Errors(CustomOAuthBody, body)].map((e) => `${e.path} ${e.message}`)[0] ?? 'invalid'})`
  if (RESERVED_SLUGS.has(body.slug)) return `the slug "${body.slug}" is a built-in provider or route here`
  const secret = text(row.client_secret).trim()
  return {
    name: body.name,
    slug: body.slug,
    icon: body.icon.slice(0, 128),
    enabled: body.enabled,
    clientId: body.client_id,
    clientSecret: secret ? await box.encrypt(secret) : '',
    authorizationEndpoint: body.authorization_endpoint,
    tokenEndpoint: body.token_endpoint,
    userInfoEndpoint: body.user_info_endpoint,
    scopes: body.scopes,
    userIdField: body.user_id_field,
    usernameField: body.username_field,
    displayNameField: body.display_name_field,
    emailField: body.email_field,
    authStyle: body.auth_style,
  }
}

/**
 * new-api's custom sign-in providers (`custom_oauth_providers`, its oauth_code kind; the client secret sealed) and
 * its users' bindings to them (`user_oauth_bindings` → `custom:<new id>`), so those users sign in as before.
 */
export async function importCustomOAuth(source: Source, schema: SourceSchema, repo: ImportRepo, box: SecretBox, user: (sourceId: number) => number, report: Report): Promise<void> {
  if (!schema.tables.has(PROVIDERS)) return
  const ids = new Map<number, number>()
  for (const row of await source.all(PROVIDERS)) {
    report.read(PROVIDERS)
    const fields = await fieldsOf(row, box)
    if (typeof fields === 'string') {
      report.skipped(PROVIDERS, 'not importable')
      report.issue(PROVIDERS, 'kind', fields, int(row.id))
      continue
    }
    const id = await repo.insertCustomOAuth(fields)
    if (id === undefined) {
      report.skipped(PROVIDERS, 'slug taken')
      report.issue(PROVIDERS, 'slug', `the target has a provider "${fields.slug}" already: not imported`, int(row.id))
      continue
    }
    ids.set(int(row.id), id)
    report.imported(PROVIDERS)
  }
  if (!schema.tables.has(BINDINGS)) return
  for (const row of await source.all(BINDINGS)) {
    report.read(BINDINGS)
    const providerId = ids.get(int(row.provider_id))
    const userId = user(int(row.user_id))
    const externalId = text(row.provider_user_id).trim().slice(0, 256)
    if (!providerId || !userId || !externalId) report.skipped(BINDINGS, 'provider or user not imported')
    else if (await repo.insertBinding(userId, `custom:${providerId}`, externalId)) report.imported(BINDINGS)
    else report.skipped(BINDINGS, 'bound already')
  }
}
