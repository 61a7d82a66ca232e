import { Link } from 'wouter-preact'
import { api, type Page } from '../../api/client'
import type { LogRow } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { DataTable, type Column } from '../../components/data-table'
import { EmptyState } from '../../components/empty-state'
import { StatusDot } from '../../components/status-dot'
import { useI18n } from '../../i18n'
import { formatTime, timeZoneName } from '../../lib/format'
import { LogTypeId, logsHref } from '../../lib/log-filters'
import { excerpt } from '../../lib/log-rows'
import { useApi } from '../../state/use-api'

/**
 * The latest error rows (type 5): the whole instance's for admins looking at it, otherwise the user's own.
 * Each links to the logs page filtered down to it; the heading's link shows them all.
 */
export function RecentErrors({ whole, username, version }: { whole: boolean; username?: string; version: number }) {
  const { t, locale } = useI18n()
  const errors = useApi(() => api.get<Page<LogRow>>(whole ? '/api/log/' : '/api/log/self', { type: LogTypeId.error, p: 1, page_size: 5 }), [whole, version])
  const zone = timeZoneName()
  const rowHref = (row: LogRow) =>
    logsHref(row.request_id ? { type: LogTypeId.error, requestId: row.request_id, username } : { type: LogTypeId.error, start: row.created_at, end: row.created_at, username })
  const columns: Column<LogRow>[] = [
    { header: t('common.time'), cell: (row) => <time dateTime={new Date(row.created_at * 1000).toISOString()} title={zone}>{formatTime(row.created_at, locale)}</time> },
    ...(whole ? [{ header: t('dashboard.errors.user'), cell: (row: LogRow) => row.username }] : []),
    { header: t('common.model'), card: 'title', cell: (row) => row.model_name || '—' },
    { header: t('dashboard.errors.token'), cell: (row) => row.token_name || '—' },
    { header: t('common.status'), card: 'key', cell: (row) => <StatusDot tone="danger" label={row.status_code ? String(row.status_code) : t('dashboard.errors.failed')} /> },
    { header: t('dashboard.errors.message'), class: 'wrap error-message', cell: (row) => <span title={row.content}>{excerpt(row.content, 100)}</span> },
    {
      header: t('common.details'),
      cell: (row) => (
        <Link href={rowHref(row)} aria-label={t('dashboard.errors.open', { time: formatTime(row.created_at, locale) })}>
          {t('dashboard.errors.openShort')}
        </Link>
      ),
    },
  ]
  return (
    <section class="section" aria-labelledby="dashboard-errors">
      <div class="section-head">
        <h2 id="dashboard-errors" class="section-title">
          {t('dashboard.errors.title')}
        </h2>
        <Link href={logsHref({ type: LogTypeId.error, username })}>{t('dashboard.errors.all')}</Link>
      </div>
      <ErrorAlert error={errors.error} />
      <DataTable
        caption={t('dashboard.errors.caption')}
        columns={columns}
        rows={errors.data?.items}
        loading={errors.loading}
        empty={<EmptyState message={t('dashboard.errors.empty')} action={<Link href="/logs" class="btn btn-secondary">{t('dashboard.errors.allLogs')}</Link>} />}
      />
    </section>
  )
}
