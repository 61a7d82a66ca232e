import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { Role, sessionPlugin } from '../../plugins/session'
import { pricingFor } from './service'

/** `GET /api/pricing`: the models the caller's group can use, with their prices in US$. */
export function pricingModule(deps: AppDeps) {
  return new Elysia({ name: 'pricing' })
    .use(sessionPlugin(deps))
    .get('/api/pricing', ({ user }) => ok(pricingFor(deps, user)), { role: Role.user })
}
