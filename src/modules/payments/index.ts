import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { ok } from '../../plugins/envelope'
import { pageOf, pageWindow } from '../../plugins/paging'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { amountQuote, topUpInfo } from '../../payments/info'
import { listOrders } from '../../payments/order-list'
import { startCreem, startEpay, startStripe } from '../../payments/checkout'
import { AmountBody, CreemPayBody, EpayPayBody, OrderQuery, StripePayBody } from './schemas'
import { callbackBase, paymentDeps } from './deps'
import { orderFilter } from './admin'
import { orderView } from './view'
import { paymentAdminRoutes } from './admin'
import { paymentWebhooks } from './webhooks'
import { providerTestRoute } from './provider-test'

/** Online top-up (new-api's paths): what the wallet offers, quotes, checkouts, my orders; the providers' webhooks; admins' orders. */
export function paymentsModule(deps: AppDeps) {
  const payments = paymentDeps(deps)
  const user = { role: Role.user }
  return new Elysia({ name: 'payments' })
    .use(sessionPlugin(deps))
    .use(paymentWebhooks(deps, payments))
    .get('/api/user/topup/info', async ({ user }) => ok(await topUpInfo(payments, user.group)), user)
    .post('/api/user/amount', ({ user, body }) => ok(amountQuote(payments, 'epay', body.amount, user.group)), { ...user, body: AmountBody })
    .post('/api/user/stripe/amount', ({ user, body }) => ok(amountQuote(payments, 'stripe', body.amount, user.group)), { ...user, body: AmountBody })
    .post(
      '/api/user/pay',
      async ({ user, body, request, server }) => ok(await startEpay(payments, user, { amount: body.amount, method: body.payment_method }, { base: callbackBase(deps, request, server) })),
      { ...user, body: EpayPayBody },
    )
    .post(
      '/api/user/stripe/pay',
      async ({ user, body, request, server }) =>
        ok(await startStripe(payments, user, { amount: body.amount, successUrl: body.success_url, cancelUrl: body.cancel_url }, { base: callbackBase(deps, request, server) })),
      { ...user, body: StripePayBody },
    )
    .post(
      '/api/user/creem/pay',
      async ({ user, body, request, server }) => ok(await startCreem(payments, user, body.product_id, { base: callbackBase(deps, request, server) })),
      { ...user, body: CreemPayBody },
    )
    .get(
      '/api/user/topup/self',
      async ({ user, query }) => {
        const window = pageWindow(query)
        const page = await listOrders(payments, { ...orderFilter(query), userId: user.id }, window.offset, window.pageSize)
        return ok(pageOf(page.items.map((item) => orderView(item.row, item)), page.total, window))
      },
      { ...user, query: OrderQuery },
    )
    .use(paymentAdminRoutes(deps, payments))
    .use(providerTestRoute(deps, payments))
}
