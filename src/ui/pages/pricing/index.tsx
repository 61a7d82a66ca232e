import { PageHeader } from '../../components/page-header'
import { useI18n } from '../../i18n'

export function PricingPage() {
  const { t } = useI18n()
  return <PageHeader title={t('nav.pricing')} lead="" />
}
