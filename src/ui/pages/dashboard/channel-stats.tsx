import { api } from '../../api/client'
import type { ChannelStat } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { DataTable, type Column } from '../../components/data-table'
import { EmptyState } from '../../components/empty-state'
import { StatusDot } from '../../components/status-dot'
import { useI18n } from '../../i18n'
import { hasLatency, WARN_ERROR_RATE } from '../../lib/channel-traffic'
import { useApi } from '../../state/use-api'

/** The API answers at most 31 days: a longer dashboard window shows its last 31 days here. */
const MAX_SPAN = 31 * 86_400

/** Admins: per channel over the dashboard's window, requests, error rate and p50/p95 latency, busiest first. */
export function ChannelStats({ start, end, version }: { start: number; end: number; version: number }) {
  const { t, locale } = useI18n()
  const from = Math.max(start, end - MAX_SPAN)
  const stats = useApi(async () => (await api.get<{ items: ChannelStat[] }>('/api/data/channel_stats', { start_timestamp: from, end_timestamp: end })).items, [from, end, version])
  const number = new Intl.NumberFormat(locale)
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 })
  const ms = (value: number, row: ChannelStat) => (hasLatency(row) ? t('channelStats.ms', { ms: number.format(value) }) : '—')
  const rows = stats.data?.map((s) => ({ ...s, id: s.channel_id }))
  const columns: Column<ChannelStat & { id: number }>[] = [
    { header: t('channelStats.channel'), card: 'title', cell: (row) => `#${row.channel_id} ${row.name}`.trim() },
    { header: t('channelStats.requests'), numeric: true, cell: (row) => number.format(row.requests) },
    { header: t('channelStats.errors'), numeric: true, cell: (row) => number.format(row.errors) },
    {
      header: t('channelStats.errorRate'),
      numeric: true,
      card: 'key',
      cell: (row) => <StatusDot tone={row.error_rate >= WARN_ERROR_RATE ? 'danger' : 'success'} label={percent.format(row.error_rate)} />,
    },
    { header: t('channelStats.p50'), numeric: true, cell: (row) => ms(row.p50_ms, row) },
    { header: t('channelStats.p95'), numeric: true, cell: (row) => ms(row.p95_ms, row) },
  ]
  return (
    <section class="section" aria-labelledby="dashboard-channel-stats">
      <h2 id="dashboard-channel-stats" class="section-title">
        {t('channelStats.title')}
      </h2>
      <ErrorAlert error={stats.error} />
      <DataTable caption={t('channelStats.caption')} columns={columns} rows={rows} loading={stats.loading} empty={<EmptyState message={t('channelStats.empty')} />} />
    </section>
  )
}
