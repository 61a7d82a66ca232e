import { useMemo, useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { EmptyState } from '../../components/empty-state'
import { SelectField, TextField } from '../../components/field'
import { PageHeader } from '../../components/page-header'
import { VendorIcon } from '../../components/vendor-icon'
import { useI18n, type MessageKey } from '../../i18n'
import { applyFilter, countBy, describe, priceIn, type SquareFilter, type SquareModel } from '../../lib/model-square'
import type { VendorId } from '../../lib/vendors'
import { useSession } from '../../state/session'
import { useApi } from '../../state/use-api'
import type { PublicList } from '../pricing/types'
import { ModelCard } from './model-card'

const NO_FILTER: SquareFilter = { search: '', vendor: '', kind: '' }

/**
 * The model square: every model the caller's group (a visitor: the default group) can use, with vendor marks,
 * search, vendor and kind filters, the price in any group that serves it, and Copy for the name. Logged out
 * it exists only while PublicPricingEnabled is on (the server refuses otherwise).
 */
export function ModelSquarePage() {
  const { t } = useI18n()
  const { status, user } = useSession()
  const list = useApi(() => api.get<PublicList>('/api/pricing'), [])
  const [filter, setFilter] = useState<SquareFilter>(NO_FILTER)
  const [group, setGroup] = useState<string>()
  const models = useMemo(() => describe(list.data?.items ?? []), [list.data])
  const shown = applyFilter(models, filter)
  const vendors = countBy(models, (model) => model.vendor.id)
  const kinds = countBy(models, (model) => model.kind)
  const own = list.data?.group ?? 'default'
  const chosen = group ?? own
  const change = (next: Partial<SquareFilter>) => setFilter((current) => ({ ...current, ...next }))
  const vendorName = (id: VendorId) => (id === 'other' ? t('models.vendor.other') : (models.find((m) => m.vendor.id === id)?.vendor.name ?? id))

  return (
    <div class="model-square">
      <PageHeader title={t('models.title')} lead={t('models.lead', { name: status?.system_name || 'Tollgate' })} />
      <ErrorAlert error={list.error} />
      <div class="filters model-filters">
        <TextField label={t('common.search')} type="search" value={filter.search} onValue={(search) => change({ search })} placeholder={t('models.searchHint')} autocomplete="off" />
        <SelectField
          label={t('models.kind')}
          value={filter.kind}
          options={[{ value: '', label: t('models.all') }, ...kinds.map(({ value, count }) => ({ value, label: `${t(`models.kind.${value}` as MessageKey)} (${count})` }))]}
          onValue={(kind) => change({ kind })}
        />
        {(list.data?.groups.length ?? 0) > 1 && (
          <SelectField label={t('models.group')} value={chosen} options={list.data!.groups.map((name) => ({ value: name, label: name === own ? t('models.ownGroup', { group: name }) : name }))} onValue={setGroup} />
        )}
      </div>
      {vendors.length > 1 && (
        <div class="vendor-chips" role="group" aria-label={t('models.vendor')}>
          <button type="button" class="chip-button" aria-pressed={filter.vendor === ''} onClick={() => change({ vendor: '' })}>
            {t('models.all')}
          </button>
          {vendors.map(({ value, count }) => (
            <button type="button" key={value} class="chip-button" aria-pressed={filter.vendor === value} onClick={() => change({ vendor: filter.vendor === value ? '' : value })}>
              <VendorIcon vendor={value} />
              {vendorName(value)} <span class="muted">{count}</span>
            </button>
          ))}
        </div>
      )}
      {list.data && models.length === 0 && <EmptyState message={t('pricing.empty.public')} />}
      {models.length > 0 && shown.length === 0 && (
        <EmptyState message={t('pricing.empty.filtered')} action={<button type="button" class="btn btn-secondary" onClick={() => setFilter(NO_FILTER)}>{t('pricing.empty.reset')}</button>} />
      )}
      <p class="visually-hidden" role="status">
        {list.data ? t('models.count', { count: shown.length }) : ''}
      </p>
      <ul class="model-grid" aria-label={t('models.title')} aria-busy={list.loading ? true : undefined}>
        {shown.map((model) => (
          <ModelCardFor key={model.item.model} model={model} group={chosen} own={own} free={Boolean(list.data?.self_use_mode)} />
        ))}
      </ul>
      {!user && (
        <p class="form-foot">
          <Link href="/login">{t('pricing.public.login')}</Link>
        </p>
      )}
    </div>
  )
}

function ModelCardFor({ model, group, own, free }: { model: SquareModel; group: string; own: string; free: boolean }) {
  return <ModelCard model={model} price={priceIn(model.item, group, own)} free={free && group === own} />
}
