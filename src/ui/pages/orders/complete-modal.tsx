import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import type { TopUpOrder } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { Modal } from '../../components/dialog'
import { TextAreaField } from '../../components/field'
import { useQuotaFormat } from '../../components/quota'
import { useI18n } from '../../i18n'

/** Completing an order by hand: what it credits to whom, and a reason (required: the manage log keeps it). */
export function CompleteOrderModal({ order, onClose, onDone }: { order: TopUpOrder; onClose(): void; onDone(order: TopUpOrder): void }) {
  const { t } = useI18n()
  const formatQuota = useQuotaFormat()
  const [reason, setReason] = useState('')
  const [missing, setMissing] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()
  const submit = async (event: Event) => {
    event.preventDefault()
    if (!reason.trim()) return setMissing(true)
    setBusy(true)
    setError(undefined)
    try {
      onDone(await api.post<TopUpOrder>('/api/user/topup/complete', { trade_no: order.trade_no, reason: reason.trim() }))
    } catch (failure) {
      setError(failure)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Modal title={t('orders.complete.title', { tradeNo: order.trade_no })} onClose={onClose}>
      <form class="form" onSubmit={submit} noValidate>
        <p>{t('orders.complete.lead', { quota: formatQuota(order.quota), userId: order.user_id })}</p>
        <TextAreaField
          label={t('orders.complete.reason')}
          value={reason}
          maxLength={500}
          onValue={(text) => (setReason(text), setMissing(false))}
          error={missing ? t('orders.complete.reasonMissing') : undefined}
        />
        <ErrorAlert error={error} />
        <div class="dialog-actions">
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" busy={busy}>
            {t('orders.complete.confirm')}
          </Button>
        </div>
      </form>
    </Modal>
  )
}
