import { PageHeader } from '../../components/page-header'
import { useI18n } from '../../i18n'

/** The price list for logged-out visitors, where the operator turned it on. */
export function PublicPricingPage() {
  const { t } = useI18n()
  return <PageHeader title={t('nav.pricing')} lead="" />
}
