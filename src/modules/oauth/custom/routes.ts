import { Elysia, t } from 'elysia'
import { isUniqueViolation, type CustomOAuthFields, type CustomOAuthRow } from '../../../db/repos'
import type { AppDeps } from '../../../deps'
import { createSecretBox } from '../../../crypto/secret-box'
import { manageLogHook } from '../../../metering/manage-log'
import { ok } from '../../../plugins/envelope'
import { IdParams } from '../../../plugins/paging'
import { sessionPlugin } from '../../../plugins/session'
import { Role } from '../../../db/repos/user-roles'
import { discover } from '../discovery'
import { oauthError } from '../errors'
import { httpOptions } from '../http'
import { CustomOAuthBody, customOAuthView, RESERVED_SLUGS, type CustomOAuthInput } from './schemas'

const MAX_PROVIDERS = 50

/** The row's fields from the body; the secret sealed, or kept (absent or '') from `previous`. */
async function fieldsOf(deps: Pick<AppDeps, 'secrets'>, body: CustomOAuthInput, previous?: CustomOAuthRow): Promise<CustomOAuthFields> {
  if (RESERVED_SLUGS.has(body.slug)) throw oauthError(400, 'custom_oauth_slug_reserved', `"${body.slug}" is a built-in provider or route: choose another slug`)
  const secret = body.client_secret?.trim() ?? ''
  const clientSecret = secret ? await createSecretBox(deps.secrets.crypto).encrypt(secret) : (previous?.clientSecret ?? '')
  return {
    name: body.name.trim(),
    slug: body.slug,
    icon: body.icon ?? previous?.icon ?? '',
    enabled: body.enabled ?? previous?.enabled ?? false,
    clientId: body.client_id.trim(),
    clientSecret,
    authorizationEndpoint: body.authorization_endpoint,
    tokenEndpoint: body.token_endpoint,
    userInfoEndpoint: body.user_info_endpoint,
    scopes: body.scopes ?? previous?.scopes ?? 'openid profile email',
    userIdField: body.user_id_field ?? previous?.userIdField ?? 'sub',
    usernameField: body.username_field ?? previous?.usernameField ?? 'preferred_username',
    displayNameField: body.display_name_field ?? previous?.displayNameField ?? 'name',
    emailField: body.email_field ?? previous?.emailField ?? 'email',
    authStyle: body.auth_style ?? previous?.authStyle ?? 0,
  }
}

const slugTaken = (error: unknown, slug: string) => {
  if (isUniqueViolation(error)) return oauthError(409, 'custom_oauth_slug_taken', `another provider has the slug "${slug}"`)
  return error
}

/** Root's custom sign-in providers on new-api's routes (`/api/custom-oauth-provider`), and its discovery helper. */
export function customOAuthModule(deps: AppDeps) {
  const repo = deps.repos.customOAuth
  const find = async (id: number) => {
    const row = await repo.findById(id)
    if (!row) throw oauthError(404, 'custom_oauth_not_found', `no custom provider ${id}`)
    return row
  }
  return new Elysia({ name: 'custom-oauth' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'option', (body) => (body && typeof body === 'object' ? { ...body, client_secret: '[redacted]' } : body)))
    .get('/api/custom-oauth-provider/', async () => ok((await repo.list()).map(customOAuthView)), { role: Role.root })
    .get('/api/custom-oauth-provider/:id', async ({ params }) => ok(customOAuthView(await find(params.id))), { role: Role.root, params: IdParams })
    .post(
      '/api/custom-oauth-provider/',
      async ({ body }) => {
        if ((await repo.list()).length >= MAX_PROVIDERS) throw oauthError(409, 'custom_oauth_limit', `at most ${MAX_PROVIDERS} custom providers`)
        const fields = await fieldsOf(deps, body)
        const row = await repo.insert(fields).catch((error: unknown) => Promise.reject(slugTaken(error, body.slug)))
        return ok(customOAuthView(row), 'created')
      },
      { role: Role.root, body: CustomOAuthBody },
    )
    .put(
      '/api/custom-oauth-provider/:id',
      async ({ params, body }) => {
        const fields = await fieldsOf(deps, body, await find(params.id))
        const row = await repo.update(params.id, fields).catch((error: unknown) => Promise.reject(slugTaken(error, body.slug)))
        if (!row) throw oauthError(404, 'custom_oauth_not_found', `no custom provider ${params.id}`)
        return ok(customOAuthView(row), 'saved')
      },
      { role: Role.root, params: IdParams, body: CustomOAuthBody },
    )
    // the provider and every user's binding to it
    .delete(
      '/api/custom-oauth-provider/:id',
      async ({ params }) => {
        if (!(await repo.delete(params.id))) throw oauthError(404, 'custom_oauth_not_found', `no custom provider ${params.id}`)
        return ok(null, 'deleted')
      },
      { role: Role.root, params: IdParams },
    )
    // an OpenID Provider's endpoints, to fill the form (through the outbound guard)
    .post(
      '/api/custom-oauth-provider/discovery',
      async ({ body }) => {
        const as = await discover(body.well_known_url, httpOptions(deps, body.well_known_url.startsWith('http:')))
        return ok({
          issuer: as.issuer,
          authorization_endpoint: as.authorization_endpoint ?? '',
          token_endpoint: as.token_endpoint ?? '',
          user_info_endpoint: as.userinfo_endpoint ?? '',
          scopes_supported: as.scopes_supported ?? [],
        })
      },
      { role: Role.root, body: t.Object({ well_known_url: t.String({ maxLength: 512, pattern: '^https?://[^\\s]+$' }) }) },
    )
}
