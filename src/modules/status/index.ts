import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { VERSION } from '../../version'
import { oauthStatus } from '../oauth/status'

/** Public facts a login page or client needs before anyone logs in. */
export function statusModule(deps: AppDeps) {
  return new Elysia({ name: 'status' }).get('/api/status', async () =>
    ok({
      version: VERSION,
      system_name: deps.options.get<string>('SystemName'),
      setup: (await deps.repos.users.count()) > 0,
      register_enabled: deps.options.get<boolean>('RegisterEnabled'),
      quota_per_unit: deps.options.get<number>('QuotaPerUnit'),
      server_address: deps.options.get<string>('ServerAddress'),
      display_in_currency: deps.options.get<boolean>('DisplayInCurrencyEnabled'),
      public_pricing_enabled: deps.options.get<boolean>('PublicPricingEnabled'),
      start_time: Math.floor(deps.startedAt / 1000),
      coordination: coordination(deps),
      ...oauthStatus(deps.options),
    }),
  )
}

/** Where limits are kept: `local` (this process), or `redis`, shared unless Redis is away (degraded: this node's own limits). */
function coordination(deps: AppDeps) {
  const { backend, shared, degraded } = deps.coord.health()
  return { backend, shared, degraded }
}
