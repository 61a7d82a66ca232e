import { Elysia } from 'elysia'
import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { UnauthorizedError } from '../../errors'
import { ok } from '../../plugins/envelope'
import { findSessionUser, readSessionClaims, sessionCookieOf, sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { pricingFor, pricingOverview } from './service'

/**
 * `GET /api/pricing`: the models the caller's group can use, with their prices in US$. Logged-in users see
 * their group; with `PublicPricingEnabled` a caller without a (valid) session sees the default group's.
 * Not behind the `role` macro, which would refuse anonymous callers: the session is read here, the same way.
 * `GET /api/pricing/models` (admin): every model of every channel at the base price, with its channels.
 */
export function pricingModule(deps: AppDeps) {
  return new Elysia({ name: 'pricing' })
    .use(sessionPlugin(deps))
    .get('/api/pricing/models', () => ok(pricingOverview(deps)), { role: Role.admin })
    // the cookie read from the request, not Elysia's `cookie`: a derive naming it makes every route of the app parse cookies
    .derive(async ({ sessionJwt, request }): Promise<{ viewer: UserRow | undefined }> => {
      try {
        const claims = await readSessionClaims(sessionJwt, sessionCookieOf(request.headers))
        return { viewer: await findSessionUser(deps, request.headers, claims) }
      } catch (error) {
        if (error instanceof UnauthorizedError && deps.options.get<boolean>('PublicPricingEnabled')) return { viewer: undefined }
        throw error
      }
    })
    .get('/api/pricing', ({ viewer }) => ok(pricingFor(deps, viewer)))
}
