import { Link } from 'wouter-preact'
import { EmptyState } from '../components/empty-state'
import { PageHeader } from '../components/page-header'
import { useI18n } from '../i18n'

export function NotFound() {
  const { t } = useI18n()
  return (
    <>
      <PageHeader title={t('app.notFound.title')} lead={t('app.notFound.body')} />
      <EmptyState message={t('app.notFound.body')} action={<Link href="/dashboard" class="btn btn-primary">{t('app.notFound.home')}</Link>} />
    </>
  )
}
