import type { ComponentChildren } from 'preact'
import type { LogRow } from '../../api/types'
import { Button } from '../../components/button'
import { DataTable, type Column } from '../../components/data-table'
import { Icon } from '../../components/icons'
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

/**
 * What came of it: a dot and the status for requests (with the error's first words); for the other kinds of
 * row (top-up, manage, system) their kind and message. The kind has no column of its own: at 1280 px the
 * columns that matter (tokens, cost, duration) must fit beside it.
 */
function Result({ row }: { row: LogRow }) {
  const { t } = useI18n()
  if (row.type === LogTypeId.consume) return <StatusDot tone="success" label={row.status_code ? String(row.status_code) : t('logs.result.ok')} />
  if (row.type === LogTypeId.error) {
    return (
      <span class="log-result" title={row.content}>
        <StatusDot tone="danger" label={row.status_code ? String(row.status_code) : t('logs.result.failed')} />
        {row.content && <span class="log-excerpt">{excerpt(row.content, 40)}</span>}
      </span>
    )
  }
  return (
    <span class="log-result" title={row.content}>
      <span class="log-kind">{t(typeLabel(row.type))}</span>
      <span class="log-excerpt muted">{excerpt(row.content, 40) || '—'}</span>
    </span>
  )
}

function Who({ row }: { row: LogRow }) {
  return (
    <span class="log-who">
      {row.username || '—'}
      {/* a space between the two lines, so the cell reads "alice laptop" to assistive technology and search */}
      {row.token_name && ' '}
      {row.token_name && <span class="muted">{row.token_name}</span>}
    </span>
  )
}

/** The whole request's time; a stream's first token under it, small. */
function Duration({ row }: { row: LogRow }) {
  const { t, locale } = useI18n()
  if (row.use_time_ms <= 0) return <>—</>
  const first = row.is_stream && row.first_token_ms > 0 ? formatDuration(row.first_token_ms, locale) : undefined
  return (
    <span class="log-duration">
      {formatDuration(row.use_time_ms, locale)}
      {first && <span class="muted" title={t('logs.col.ttft')}>{t('logs.firstToken', { time: first })}</span>}
    </span>
  )
}

/** Input / output tokens; under them, small, the input the upstream read from its prompt cache. */
function Tokens({ row }: { row: LogRow }) {
  const { t, locale } = useI18n()
  const cached = row.cache_read_tokens > 0 ? formatNumber(row.cache_read_tokens, locale) : undefined
  return (
    <span class="log-duration">
      <span title={t('logs.col.tokensTitle')}>{`${formatNumber(row.prompt_tokens, locale)} / ${formatNumber(row.completion_tokens, locale)}`}</span>
      {cached && <span class="muted" title={t('logs.cacheReadTitle')}>{t('logs.cacheRead', { count: cached })}</span>}
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
  const columns: Column<LogRow>[] = [
    { header: t('common.time'), cell: (row) => <LogTime seconds={row.created_at} short /> },
    { header: t('common.model'), card: 'title', cell: (row) => row.model_name || '—' },
    { header: t('logs.col.result'), card: 'key', cell: (row) => <Result row={row} /> },
    ...(admin
      ? [
          // who, and under it with which token: one column, so the figures fit at 1280 px
          { header: t('logs.col.userToken'), cell: (row: LogRow) => <Who row={row} /> },
          { header: t('logs.col.channel'), numeric: true, cell: (row: LogRow) => ('channel' in row && row.channel ? `#${row.channel}` : '—') },
        ]
      : [{ header: t('logs.col.token'), cell: (row: LogRow) => row.token_name || '—' }]),
    {
      header: t('logs.col.tokens'),
      numeric: true,
      cell: (row) => (isRequest(row) ? <Tokens row={row} /> : '—'),
    },
    { header: t('common.quota'), numeric: true, cell: (row) => (row.quota ? quota(row.quota) : '—') },
    { header: t('logs.col.duration'), numeric: true, cell: (row) => <Duration row={row} /> },
    {
      header: t('common.actions'),
      class: 'col-actions',
      cell: (row) => (
        <Button variant="ghost" class="icon-button" aria-label={t('logs.detailsFor', { time: formatTime(row.created_at, locale) })} title={t('logs.details')} onClick={() => onDetails(row)}>
          <Icon name="chevronRight" />
        </Button>
      ),
    },
  ]
  return <DataTable caption={t('logs.table.caption')} columns={columns} rows={rows} loading={loading} empty={empty} />
}
