import { useState } from 'preact/hooks'
import type { Query } from '../../api/client'
import { Button } from '../../components/button'
import { SelectField, TextField } from '../../components/field'
import { useI18n, type MessageKey } from '../../i18n'
import { ORDER_PROVIDERS, ORDER_STATES } from './cells'

export interface OrderFilters {
  tradeNo: string
  userId: string
  status: string
  provider: string
  /** `datetime-local` values, in the browser's zone */
  from: string
  to: string
}

export const NO_FILTERS: OrderFilters = { tradeNo: '', userId: '', status: '', provider: '', from: '', to: '' }

const seconds = (local: string) => (local ? Math.floor(new Date(local).getTime() / 1000) : undefined)

/** The admins' list query (`GET /api/user/topup`) for these filters; a user id that is not a number is left out. */
export function orderQuery(filters: OrderFilters): Query {
  return {
    keyword: filters.tradeNo.trim() || undefined,
    user_id: /^[1-9]\d{0,15}$/.test(filters.userId.trim()) ? filters.userId.trim() : undefined,
    status: filters.status || undefined,
    provider: filters.provider || undefined,
    start_timestamp: seconds(filters.from),
    end_timestamp: seconds(filters.to),
  }
}

/** The filter form: the lists (state, provider) apply at once, the typed ones on Search or Enter. */
export function OrderFilterForm({ applied, onApply }: { applied: OrderFilters; onApply(filters: OrderFilters): void }) {
  const { t } = useI18n()
  const [draft, setDraft] = useState(applied)
  const set = (patch: Partial<OrderFilters>) => setDraft((current) => ({ ...current, ...patch }))
  const setAndApply = (patch: Partial<OrderFilters>) => {
    const next = { ...draft, ...patch }
    setDraft(next)
    onApply(next)
  }
  const any = { value: '', label: t('orders.filter.any') }
  const userIdBad = draft.userId.trim() !== '' && !/^[1-9]\d{0,15}$/.test(draft.userId.trim())
  return (
    <form
      class="filters"
      role="search"
      aria-label={t('orders.filter.label')}
      onSubmit={(event) => {
        event.preventDefault()
        if (!userIdBad) onApply(draft)
      }}
    >
      <TextField label={t('orders.filter.tradeNo')} type="search" value={draft.tradeNo} onValue={(tradeNo) => set({ tradeNo })} autocomplete="off" />
      <TextField label={t('orders.filter.user')} value={draft.userId} onValue={(userId) => set({ userId })} inputMode="numeric" error={userIdBad ? t('orders.filter.userInvalid') : undefined} />
      <SelectField
        label={t('orders.filter.status')}
        value={draft.status}
        options={[any, ...ORDER_STATES.map((state) => ({ value: state, label: t(`orders.status.${state}` as MessageKey) }))]}
        onValue={(status) => setAndApply({ status })}
      />
      <SelectField
        label={t('orders.filter.provider')}
        value={draft.provider}
        options={[any, ...ORDER_PROVIDERS.map((provider) => ({ value: provider, label: t(`orders.provider.${provider}` as MessageKey) }))]}
        onValue={(provider) => setAndApply({ provider })}
      />
      <TextField label={t('orders.filter.from')} type="datetime-local" value={draft.from} onValue={(from) => set({ from })} />
      <TextField label={t('orders.filter.to')} type="datetime-local" value={draft.to} onValue={(to) => set({ to })} />
      <Button type="submit">{t('common.search')}</Button>
    </form>
  )
}
