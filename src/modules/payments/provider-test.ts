import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { manageLogHook } from '../../metering/manage-log'
import { ok } from '../../plugins/envelope'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { testProvider } from '../../payments/provider-test'
import type { PaymentDeps } from '../../payments/types'

/** Root's "test" per provider in Settings: one authenticated read with the saved keys (rate-limited like every call of root's). */
export function providerTestRoute(deps: AppDeps, payments: PaymentDeps) {
  return new Elysia({ name: 'payments-test' })
    .use(sessionPlugin(deps))
    // a POST of root's: in the manage log like the others (who tested which provider's keys, and when)
    .onAfterHandle(manageLogHook(deps, 'payment'))
    .post('/api/payment/test', async ({ body }) => ok(await testProvider(payments, body.provider)), {
      role: Role.root,
      body: t.Object({ provider: t.Union([t.Literal('epay'), t.Literal('stripe'), t.Literal('creem')]) }),
    })
}
