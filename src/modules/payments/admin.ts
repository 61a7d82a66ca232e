import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { manageLogHook } from '../../metering/manage-log'
import { ok } from '../../plugins/envelope'
import { pageOf, pageWindow } from '../../plugins/paging'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { creditOrder } from '../../payments/orders'
import { listOrders, type OrderListQuery } from '../../payments/order-list'
import { BadRequestError } from '../../errors'
import { PaymentError } from '../../payments/quote'
import type { PaymentDeps } from '../../payments/types'
import { CompleteBody, OrderQuery } from './schemas'
import type { Static } from 'elysia'
import { orderView } from './view'

const REFUSALS: Record<string, [string, string, number]> = {
  unknown_order: ['unknown_order', 'no order has this trade number', 404],
  already_paid: ['already_paid', 'this order is already paid', 409],
  closed: ['order_closed', 'this order expired or failed: it cannot be completed', 409],
  mismatch: ['owner_missing', "this order's user no longer exists", 409],
}

/** The list filters both order lists take (a user's own list pins `userId`). */
export function orderFilter(query: Static<typeof OrderQuery>): OrderListQuery {
  if (query.start_timestamp !== undefined && query.end_timestamp !== undefined && query.start_timestamp > query.end_timestamp) {
    throw new BadRequestError('query parameter "start_timestamp" must not be after "end_timestamp"', 'start_timestamp')
  }
  return { keyword: query.keyword, status: query.status, provider: query.provider, createdFrom: query.start_timestamp, createdTo: query.end_timestamp }
}

/** Admins' orders: all of them, filtered; and completing one by hand (a manage log row with who and why). */
export function paymentAdminRoutes(deps: AppDeps, payments: PaymentDeps) {
  const admin = { role: Role.admin }
  return new Elysia({ name: 'payments-admin' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'topup'))
    .get(
      '/api/user/topup',
      async ({ query }) => {
        const window = pageWindow(query)
        const page = await listOrders(payments, { ...orderFilter(query), userId: query.user_id }, window.offset, window.pageSize)
        return ok(pageOf(page.items.map((item) => orderView(item.row, item)), page.total, window))
      },
      { ...admin, query: OrderQuery },
    )
    .post(
      '/api/user/topup/complete',
      async ({ user, body, clientIp, arrival }) => {
        // no provider, money or currency to match: the admin vouches for the payment, and the reason says why
        const { outcome, order } = await creditOrder(payments, body.trade_no.trim(), {}, { ip: clientIp, requestId: arrival?.id, by: `completed by ${user.username}` })
        if (outcome !== 'credited' || !order) {
          const [code, message, status] = REFUSALS[outcome]!
          throw new PaymentError(code, message, 'trade_no', status)
        }
        return ok(orderView(order), `order ${order.tradeNo} completed: ${order.quota} quota credited`)
      },
      { ...admin, body: CompleteBody },
    )
}
