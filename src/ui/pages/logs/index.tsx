import { useMemo, useState } from 'preact/hooks'
import { Link, useLocation, useSearch } from 'wouter-preact'
import { api, withQuery, type Page } from '../../api/client'
import { Role, type LogRow } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { EmptyState } from '../../components/empty-state'
import { PageHeader } from '../../components/page-header'
import { Pager } from '../../components/pager'
import { useI18n } from '../../i18n'
import { hasFilters, LogTypeId, logListQuery, logSearchOf, logStatQuery, NO_FILTERS, parseLogSearch, type LogFilters } from '../../lib/log-filters'
import { useApi } from '../../state/use-api'
import { useUser } from '../../state/session'
import { LogFilterForm } from './filter-form'
import { LogDetail } from './log-detail'
import { LogTable } from './log-table'
import { LogTotals, type LogStat } from './totals'

/**
 * Usage, top-up, manage and error logs: admins see everyone's (`/api/log/`), users their own
 * (`/api/log/self`). The filters live in the URL, so a filtered view is a link that works on reload.
 */
export function LogsPage() {
  const { t } = useI18n()
  const admin = useUser().role >= Role.admin
  const search = useSearch()
  const [, navigate] = useLocation()
  const filters = useMemo(() => parseLogSearch(search), [search])
  const [open, setOpen] = useState<LogRow | null>(null)
  const go = (next: LogFilters) => navigate(`/logs${logSearchOf(next)}`)

  const base = admin ? '/api/log' : '/api/log/self'
  const list = useApi(() => api.get<Page<LogRow>>(admin ? '/api/log/' : '/api/log/self', logListQuery(filters, admin)), [filters, admin])
  // the stat sums billed (consume) rows: it answers "all types" and "consume", not the other types
  const showTotals = filters.type === LogTypeId.all || filters.type === LogTypeId.consume
  const stat = useApi(() => (showTotals ? api.get<LogStat>(`${base}/stat`, logStatQuery(filters, admin)) : Promise.resolve(undefined)), [filters, admin, showTotals])

  const filtered = hasFilters(filters)
  const empty = filtered ? (
    <EmptyState message={t('logs.empty.filtered')} action={<Button onClick={() => go(NO_FILTERS)}>{t('logs.empty.reset')}</Button>} />
  ) : (
    <EmptyState
      message={t('logs.empty.none')}
      action={
        <Link href="/tokens" class="btn btn-primary">
          {t('logs.empty.createToken')}
        </Link>
      }
    />
  )

  return (
    <div class="page-logs">
      <PageHeader
        title={t('nav.logs')}
        lead={t('logs.lead')}
        actions={
          <>
            {/* a plain download: the server streams every row the filter selects, whatever their number */}
            <a class="btn" href={withQuery(`${base}/export`, logStatQuery(filters, admin))} download title={t('logs.exportHint')}>
              {t('logs.export')}
            </a>
            <Button
              onClick={() => {
                list.reload()
                stat.reload()
              }}
              busy={list.loading && list.data !== undefined}
            >
              {t('common.refresh')}
            </Button>
          </>
        }
      />
      <LogFilterForm filters={filters} admin={admin} onApply={go} onReset={() => go({ ...NO_FILTERS, pageSize: filters.pageSize })} />
      {showTotals && list.data?.total !== 0 && <LogTotals stat={stat.data} error={stat.error} />}
      <ErrorAlert error={list.error} />
      <LogTable rows={list.data?.items} loading={list.loading} admin={admin} empty={empty} onDetails={setOpen} />
      {list.data && list.data.total > 0 && (
        <Pager
          page={filters.page}
          pageSize={filters.pageSize}
          total={list.data.total}
          onPage={(page) => go({ ...filters, page })}
          onPageSize={(pageSize) => go({ ...filters, pageSize, page: 1 })}
        />
      )}
      {open && <LogDetail row={open} admin={admin} onClose={() => setOpen(null)} />}
    </div>
  )
}
