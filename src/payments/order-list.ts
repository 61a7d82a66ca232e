import { TopUpStatus, type TopUpFilter, type TopUpRow } from '../db/repos/topups'
import type { PaymentDeps } from './types'

/** Seconds an unpaid order waits for its payment (`TopUpOrderExpireMinutes`). */
export const orderLifetime = (deps: Pick<PaymentDeps, 'options'>) => deps.options.get<number>('TopUpOrderExpireMinutes') * 60

/**
 * The state an order shows: a pending order past its time is expired. It is not rewritten: a payment the provider
 * still reports for it is credited (the money was taken), and every node reads the same state from the clock.
 */
function orderState(row: Pick<TopUpRow, 'status' | 'createTime'>, lifetime: number, now: number): string {
  return row.status === TopUpStatus.pending && row.createTime + lifetime <= now ? TopUpStatus.expired : row.status
}

export interface OrderListQuery {
  userId?: number
  keyword?: string
  status?: string
  provider?: string
  createdFrom?: number
  createdTo?: number
}

/** A page of orders, newest first, each with the state it shows and when an unpaid one expires. */
export async function listOrders(deps: Pick<PaymentDeps, 'options' | 'repos' | 'now'>, query: OrderListQuery, offset: number, limit: number) {
  const lifetime = orderLifetime(deps)
  const now = deps.now()
  const filter: TopUpFilter = { ...query, pendingExpiresBefore: now - lifetime + 1 }
  const page = await deps.repos.topups.list(filter, offset, limit)
  return {
    total: page.total,
    items: page.items.map((row) => ({ row, state: orderState(row, lifetime, now), expireTime: row.status === TopUpStatus.pending ? row.createTime + lifetime : 0 })),
  }
}
