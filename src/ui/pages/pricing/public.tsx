import { Link } from 'wouter-preact'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { EmptyState } from '../../components/empty-state'
import { PageHeader } from '../../components/page-header'
import { useI18n } from '../../i18n'
import { useApi } from '../../state/use-api'
import { PriceTable } from './price-table'
import type { PublicList } from './types'

/** The price list for logged-out visitors, where the operator turned it on: read-only, no channels, no editing. */
export function PublicPricingPage() {
  const { t, locale } = useI18n()
  const list = useApi(() => api.get<PublicList>('/api/pricing'), [])
  const ratio = list.data?.group_ratio ?? 1
  return (
    <div class="pricing-public">
      <PageHeader title={t('nav.pricing')} lead={t('pricing.public.lead')} />
      {list.data && ratio !== 1 && <p class="muted">{t('pricing.public.group', { group: list.data.group, ratio: new Intl.NumberFormat(locale).format(ratio) })}</p>}
      <ErrorAlert error={list.error} />
      <PriceTable items={list.data?.items} loading={list.loading} empty={<EmptyState message={t('pricing.empty.public')} />} />
      <p class="form-foot">
        <Link href="/login">{t('pricing.public.login')}</Link>
      </p>
    </div>
  )
}
