import * as oauth from 'oauth4webapi'
import type { CustomOAuthRow } from '../../../db/repos'
import { createSecretBox } from '../../../crypto/secret-box'
import { openSecret } from '../../../options/secret-options'
import type { OAuthDeps, ProviderClient } from '../client'
import { oauthError } from '../errors'
import { httpOptions } from '../http'
import type { ProviderProfile } from '../profile'

/** The value at a dotted path of the user-info JSON (`data.user.id`), as bounded text ('' when absent). */
function claimAt(source: unknown, path: string, max = 256): string {
  if (!path) return ''
  let value: unknown = source
  for (const part of path.split('.')) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return ''
    value = (value as Record<string, unknown>)[part]
  }
  if (typeof value === 'string') return value.slice(0, max)
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value)
  return ''
}

/** The binding type of a custom provider (new-api's custom OAuth bindings, by the provider's id). */
export const customBinding = (row: Pick<CustomOAuthRow, 'id'>) => `custom:${row.id}`

/**
 * A custom provider ready for the flow: its endpoints as root typed them (PROVIDER_ENDPOINTS still applies to
 * their hosts), the client authenticated as `auth_style` says (0 and 2: HTTP Basic, 1: in the body), the profile
 * read from the user-info endpoint by the claim paths. Its e-mail counts as verified only with `email_verified: true`.
 */
export async function customClient(deps: OAuthDeps, row: CustomOAuthRow): Promise<ProviderClient> {
  if (!row.enabled) throw oauthError(403, 'oauth_disabled', `sign-in with ${row.name} is not enabled on this instance`)
  const secret = await openSecret(createSecretBox(deps.cryptoSecret), row.clientSecret)
  if (!secret) throw oauthError(400, 'oauth_not_configured', `sign-in with ${row.name} has no client secret yet: root sets it in Settings`)
  const as: oauth.AuthorizationServer = {
    issuer: new URL(row.authorizationEndpoint).origin,
    authorization_endpoint: row.authorizationEndpoint,
    token_endpoint: row.tokenEndpoint,
  }
  const insecure = [row.authorizationEndpoint, row.tokenEndpoint, row.userInfoEndpoint].some((url) => url.startsWith('http:'))
  return {
    name: row.slug,
    as,
    client: { client_id: row.clientId },
    auth: row.authStyle === 1 ? oauth.ClientSecretPost(secret) : oauth.ClientSecretBasic(secret),
    scope: row.scopes,
    oidc: false,
    http: httpOptions(deps, insecure),
    async readProfile(read): Promise<ProviderProfile> {
        const info = await read(row.userInfoEndpoint)
        const username = claimAt(info, row.usernameField)
        return {
          id: claimAt(info, row.userIdField),
          username,
          displayName: claimAt(info, row.displayNameField) || username,
          email: claimAt(info, row.emailField, 254),
          emailVerified: (info as Record<string, unknown> | null)?.email_verified === true,
        }
    },
  }
}
