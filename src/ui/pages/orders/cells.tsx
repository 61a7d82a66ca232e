import type { TopUpOrder } from '../../api/types'
import type { Column } from '../../components/data-table'
import { useQuotaFormat } from '../../components/quota'
import { StatusDot, type Tone } from '../../components/status-dot'
import { useI18n, type MessageKey } from '../../i18n'
import { Time } from '../redemptions/time'

const TONES: Record<string, Tone> = { pending: 'warning', success: 'success', expired: 'muted', failed: 'danger' }
export const ORDER_STATES = ['pending', 'success', 'expired', 'failed'] as const
export const ORDER_PROVIDERS = ['epay', 'stripe', 'creem'] as const

/** The state, and for an unpaid order until when it can be paid. */
function OrderState({ order }: { order: TopUpOrder }) {
  const { t } = useI18n()
  return (
    <>
      <StatusDot tone={TONES[order.status] ?? 'muted'} label={t(`orders.status.${order.status}` as MessageKey)} />
      {order.status === 'pending' && order.expire_time > 0 && (
        <div class="muted">
          <OrderExpiry seconds={order.expire_time} />
        </div>
      )}
    </>
  )
}

function OrderExpiry({ seconds }: { seconds: number }) {
  const { t } = useI18n()
  const [before, after] = t('orders.expires', { time: '\u0000' }).split('\u0000')
  return (
    <>
      {before}
      <Time seconds={seconds} empty="—" />
      {after}
    </>
  )
}

/** "¥73.00", or "73.00 XYZ" for a currency code the browser does not know. */
function moneyText(order: TopUpOrder, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: order.currency }).format(order.money)
  } catch {
    return `${order.money.toFixed(2)} ${order.currency}`
  }
}

/** Columns both lists show (a user's own and the admins'), in the reader's language. */
export function useOrderColumns(): Column<TopUpOrder>[] {
  const { t, locale } = useI18n()
  const formatQuota = useQuotaFormat()
  const money = (order: TopUpOrder) => moneyText(order, locale)
  const method = (order: TopUpOrder) => {
    const provider = t(`orders.provider.${order.payment_provider}` as MessageKey)
    return order.payment_method && order.payment_method !== order.payment_provider ? `${provider} · ${order.payment_method}` : provider
  }
  return [
    { header: t('orders.column.tradeNo'), cell: (order) => <code>{order.trade_no}</code> },
    { header: t('orders.column.amount'), cell: (order) => formatQuota(order.quota), numeric: true },
    { header: t('orders.column.money'), cell: money, numeric: true },
    { header: t('orders.column.provider'), cell: method },
    { header: t('common.status'), cell: (order) => <OrderState order={order} /> },
    { header: t('orders.column.created'), cell: (order) => <Time seconds={order.create_time} empty="—" /> },
    { header: t('orders.column.completed'), cell: (order) => <Time seconds={order.complete_time} empty="—" /> },
  ]
}
