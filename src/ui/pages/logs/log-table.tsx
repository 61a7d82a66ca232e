import type { ComponentChildren } from 'preact'
import type { LogRow } from '../../api/types'
import { Button } from '../../components/button'
import { DataTable, type Column } from '../../components/data-table'
import { useQuotaFormat } from '../../components/quota'
import { StatusDot } from '../../components/status-dot'
import { useI18n, type MessageKey } from '../../i18n'
import { formatNumber, formatTime, timeZoneName } from '../../lib/format'
import { LogTypeId } from '../../lib/log-filters'
import { excerpt, formatDuration, formatLogTime } from '../../lib/log-rows'

const isRequest = (row: LogRow) => row.type === LogTypeId.consume || row.type === LogTypeId.error
export const typeLabel = (type: number): MessageKey => (type >= 1 && type <= 5 ? (`logs.type.${type}` as MessageKey) : 'logs.type.0')

/** When it happened, in the browser's zone (the zone's name on hover); `short` leaves out the current year. */
export function LogTime({ seconds, short }: { seconds: number; short?: boolean }) {
  const { locale } = useI18n()
  return (
    <time dateTime={new Date(seconds * 1000).toISOString()} title={timeZoneName()}>
      {short ? formatLogTime(seconds, locale) : formatTime(seconds, locale)}
    </time>
  )
}

/** What came of it: a dot and the status for requests (with the error's first words), the message for the rest. */
function Result({ row }: { row: LogRow }) {
  const { t } = useI18n()
  if (row.type === LogTypeId.consume) return <StatusDot tone="success" label={row.status_code ? String(row.status_code) : t('logs.result.ok')} />
  if (row.type === LogTypeId.error) {
    return (
      <span class="log-result" title={row.content}>
        <StatusDot tone="danger" label={row.status_code ? String(row.status_code) : t('logs.result.failed')} />
        {row.content && <span class="log-excerpt">{excerpt(row.content, 60)}</span>}
      </span>
    )
  }
  return (
    <span class="log-excerpt muted" title={row.content}>
      {excerpt(row.content, 60) || '—'}
    </span>
  )
}

interface Props {
  rows: LogRow[] | undefined
  loading: boolean
  admin: boolean
  empty: ComponentChildren
  onDetails(row: LogRow): void
}

export function LogTable({ rows, loading, admin, empty, onDetails }: Props) {
  const { t, locale } = useI18n()
  const quota = useQuotaFormat()
  const count = (row: LogRow, value: number) => (isRequest(row) ? formatNumber(value, locale) : '—')
  const columns: Column<LogRow>[] = [
    { header: t('common.time'), cell: (row) => <LogTime seconds={row.created_at} short /> },
    { header: t('logs.col.type'), cell: (row) => t(typeLabel(row.type)) },
    { header: t('common.model'), cell: (row) => row.model_name || '—' },
    { header: t('logs.col.result'), cell: (row) => <Result row={row} /> },
    { header: t('logs.col.token'), cell: (row) => row.token_name || '—' },
    ...(admin
      ? [
          { header: t('logs.col.user'), cell: (row: LogRow) => row.username || '—' },
          { header: t('logs.col.channel'), numeric: true, cell: (row: LogRow) => ('channel' in row && row.channel ? `#${row.channel}` : '—') },
        ]
      : []),
    {
      header: t('logs.col.tokens'),
      numeric: true,
      cell: (row) => (isRequest(row) ? <span title={t('logs.col.tokensTitle')}>{`${count(row, row.prompt_tokens)} / ${count(row, row.completion_tokens)}`}</span> : '—'),
    },
    { header: t('common.quota'), numeric: true, cell: (row) => (row.quota ? quota(row.quota) : '—') },
    { header: t('logs.col.duration'), numeric: true, cell: (row) => (row.use_time_ms > 0 ? formatDuration(row.use_time_ms, locale) : '—') },
    { header: t('logs.col.ttft'), numeric: true, cell: (row) => (row.is_stream && row.first_token_ms > 0 ? formatDuration(row.first_token_ms, locale) : '—') },
    {
      header: t('common.actions'),
      class: 'col-actions',
      cell: (row) => (
        <Button variant="ghost" aria-label={t('logs.detailsFor', { time: formatTime(row.created_at, locale) })} onClick={() => onDetails(row)}>
          {t('logs.details')}
        </Button>
      ),
    },
  ]
  return <DataTable caption={t('logs.table.caption')} columns={columns} rows={rows} loading={loading} empty={empty} />
}
