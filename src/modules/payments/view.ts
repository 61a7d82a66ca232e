import type { TopUpRow } from '../../db/repos/topups'

/**
 * An order as the API shows it: new-api's `top_ups` fields, money in the currency's major unit; `status` the state
 * it shows (a pending order past its time reads `expired`) and `expire_time` when an unpaid one lapses (else 0).
 */
export function orderView(row: TopUpRow, shown: { state?: string; expireTime?: number } = {}) {
  return {
    id: row.id,
    user_id: row.userId,
    trade_no: row.tradeNo,
    amount: row.amount,
    quota: row.quota,
    money: row.moneyCents / 100,
    currency: row.currency,
    payment_method: row.paymentMethod,
    payment_provider: row.paymentProvider,
    status: shown.state ?? row.status,
    create_time: row.createTime,
    complete_time: row.completeTime,
    expire_time: shown.expireTime ?? 0,
  }
}

export type OrderView = ReturnType<typeof orderView>
