import { useMemo, useState } from 'preact/hooks'
import { useLocation } from 'wouter-preact'
import { api } from '../../api/client'
import { Role } from '../../api/types'
import { ErrorAlert, Notice } from '../../components/alert'
import { Button } from '../../components/button'
import { EmptyState } from '../../components/empty-state'
import { CheckboxField, TextField } from '../../components/field'
import { PageHeader } from '../../components/page-header'
import { Pager } from '../../components/pager'
import { useI18n } from '../../i18n'
import { formatDollars, formatNumber } from '../../lib/format'
import { DEFAULT_QUOTA_PER_UNIT, ratioToDollars } from '../../lib/prices'
import { useUser } from '../../state/session'
import { useApi } from '../../state/use-api'
import { GroupRatios } from './group-ratios'
import { PriceOptionsDrawer } from './price-options'
import { PriceTable } from './price-table'
import { SetPriceDrawer } from './set-price'
import { SyncPricesDrawer } from './sync-prices'
import type { Overview, PriceItem } from './types'

/** Admins: every channel's models with their prices and channels; root sets prices here too. */
export function PricingPage() {
  const { t, locale } = useI18n()
  const [, navigate] = useLocation()
  const user = useUser()
  const root = user.role >= Role.root
  const overview = useApi(() => api.get<Overview>('/api/pricing/models'), [])
  const [search, setSearch] = useState('')
  const [onlyUnpriced, setOnlyUnpriced] = useState(false)
  const [page, setPage] = useState(1)
  const [pageSize, setPageSize] = useState(50)
  const [editing, setEditing] = useState<PriceItem | 'options' | 'sync' | null>(null)
  const data = overview.data
  const quotaPerUnit = data?.quota_per_unit ?? DEFAULT_QUOTA_PER_UNIT
  const unpriced = data?.unpriced_models.length ?? 0

  const matching = useMemo(() => {
    const query = search.trim().toLowerCase()
    const served = new Set(data?.unpriced_models)
    return data?.items.filter((item) => (!query || item.model.toLowerCase().includes(query)) && (!onlyUnpriced || served.has(item.model)))
  }, [data, search, onlyUnpriced])
  const shown = matching?.slice((page - 1) * pageSize, page * pageSize)
  const filter = (next: () => void) => (next(), setPage(1))
  const saved = () => (setEditing(null), overview.reload())

  const empty =
    data && data.items.length === 0 ? (
      <EmptyState message={t('pricing.empty.none')} action={<Button variant="primary" onClick={() => navigate('/channels')}>{t('pricing.empty.addChannel')}</Button>} />
    ) : (
      <EmptyState message={t('pricing.empty.filtered')} action={<Button onClick={() => filter(() => (setSearch(''), setOnlyUnpriced(false)))}>{t('pricing.empty.reset')}</Button>} />
    )

  return (
    <div class="pricing-page">
      <PageHeader
        title={t('nav.pricing')}
        lead={t('pricing.lead')}
        actions={
          root ? (
            <>
              <Button onClick={() => setEditing('sync')}>{t('sync.button')}</Button>
              <Button variant="primary" onClick={() => setEditing('options')}>
                {t('pricing.options.button')}
              </Button>
            </>
          ) : undefined
        }
      />
      {!root && <Notice>{t('pricing.readOnly')}</Notice>}
      {unpriced > 0 && (
        <div class="alert price-warning">
          <span>{t(data?.self_use_mode ? 'pricing.unpriced.noticeFree' : 'pricing.unpriced.notice', { count: formatNumber(unpriced, locale) })}</span>
          {!onlyUnpriced && <Button onClick={() => filter(() => setOnlyUnpriced(true))}>{t('pricing.unpriced.show')}</Button>}
        </div>
      )}
      <div class="filters">
        <TextField label={t('pricing.filter.search')} type="search" value={search} onValue={(value) => filter(() => setSearch(value))} />
        <CheckboxField label={t('pricing.filter.unpriced')} checked={onlyUnpriced} onChecked={(on) => filter(() => setOnlyUnpriced(on))} />
      </div>
      <ErrorAlert error={overview.error} />
      <PriceTable items={shown} loading={overview.loading} empty={empty} showChannels onSetPrice={root ? setEditing : undefined} />
      {matching && matching.length > 0 && (
        <Pager page={page} pageSize={pageSize} total={matching.length} onPage={setPage} onPageSize={(size) => (setPageSize(size), setPage(1))} />
      )}
      <p class="price-legend muted">{t('pricing.legend', { dollars: formatDollars(ratioToDollars(1, quotaPerUnit), locale) })}</p>
      {data && <GroupRatios ratios={data.group_ratios} />}
      {editing === 'options' && <PriceOptionsDrawer quotaPerUnit={quotaPerUnit} onSaved={saved} onClose={() => setEditing(null)} />}
      {editing === 'sync' && <SyncPricesDrawer quotaPerUnit={quotaPerUnit} onSaved={saved} onClose={() => setEditing(null)} />}
      {editing && editing !== 'options' && editing !== 'sync' && <SetPriceDrawer item={editing} quotaPerUnit={quotaPerUnit} onSaved={saved} onClose={() => setEditing(null)} />}
    </div>
  )
}
