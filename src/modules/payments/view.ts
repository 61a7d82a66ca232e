import type { TopUpRow } from '../../db/repos/topups'

/** An order as the API shows it: new-api's `top_ups` fields, money in the currency's major unit. */
export function orderView(row: TopUpRow) {
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
    status: row.status,
    create_time: row.createTime,
    complete_time: row.completeTime,
  }
}
