import type { ComponentChildren } from 'preact'
import { DataTable, type Column } from '../../components/data-table'
import { useQuotaFormat } from '../../components/quota'
import { RowMenu } from '../../components/row-menu'
import { StatusDot, type Tone } from '../../components/status-dot'
import { useI18n, type MessageKey } from '../../i18n'
import { channelTypeName } from '../../lib/channel-types'
import { formatNumber, formatTime, timeZoneName } from '../../lib/format'
import { ChannelStatus, type Channel } from './types'

const STATUS: Record<number, { tone: Tone; label: MessageKey }> = {
  [ChannelStatus.enabled]: { tone: 'success', label: 'channels.status.enabled' },
  [ChannelStatus.manuallyDisabled]: { tone: 'muted', label: 'channels.status.manual' },
  [ChannelStatus.autoDisabled]: { tone: 'danger', label: 'channels.status.auto' },
}

function ChannelStatusDot({ status }: { status: number }) {
  const { t } = useI18n()
  const known = STATUS[status]
  return <StatusDot tone={known?.tone ?? 'warning'} label={known ? t(known.label) : String(status)} />
}

interface RowActions {
  edit(channel: Channel): void
  test(channel: Channel): void
  toggle(channel: Channel): void
  remove(channel: Channel): void
}

interface Props {
  rows: readonly Channel[] | undefined
  loading: boolean
  empty: ComponentChildren
  testing: ReadonlySet<number>
  selected: ReadonlySet<number>
  onSelect(next: Set<number>): void
  actions: RowActions
}

/** The channel list: status as dot + word, numbers right-aligned, the row's actions in its trailing menu. */
export function ChannelTable({ rows, loading, empty, testing, selected, onSelect, actions }: Props) {
  const { t, locale } = useI18n()
  const quota = useQuotaFormat()
  const names = new Map(rows?.map((row) => [row.id, row.name]))
  const columns: Column<Channel>[] = [
    {
      header: t('common.name'),
      cell: (c) => (
        <>
          <span class="channel-name">{c.name}</span> <span class="channel-id">#{c.id}</span>
        </>
      ),
    },
    { header: t('channels.col.type'), cell: (c) => channelTypeName(c.type), class: 'col-type' },
    { header: t('common.status'), cell: (c) => <ChannelStatusDot status={c.status} /> },
    { header: t('channels.col.priority'), cell: (c) => formatNumber(c.priority, locale), numeric: true },
    { header: t('channels.col.weight'), cell: (c) => formatNumber(c.weight, locale), numeric: true },
    { header: t('channels.col.tag'), cell: (c) => (c.tag ? <span class="chip">{c.tag}</span> : <span class="muted">—</span>) },
    {
      header: t('channels.col.responseTime'),
      numeric: true,
      cell: (c) =>
        testing.has(c.id) ? (
          <span class="muted">{t('channels.test.running')}</span>
        ) : c.test_time ? (
          <span title={`${formatTime(c.test_time, locale)} (${timeZoneName()})`}>{t('channels.ms', { ms: formatNumber(c.response_time, locale) })}</span>
        ) : (
          <span class="muted" title={t('channels.test.never')}>—</span>
        ),
    },
    { header: t('channels.col.usedQuota'), cell: (c) => quota(c.used_quota), numeric: true },
    { header: t('channels.col.keys'), cell: (c) => formatNumber(c.key_count, locale), numeric: true },
    {
      header: t('common.actions'),
      class: 'col-actions',
      cell: (c) => (
        <RowMenu
          name={c.name}
          actions={[
            { label: t('common.edit'), onSelect: () => actions.edit(c) },
            { label: t('channels.action.test'), onSelect: () => actions.test(c) },
            { label: c.status === ChannelStatus.enabled ? t('common.disable') : t('common.enable'), onSelect: () => actions.toggle(c) },
            { label: t('common.delete'), onSelect: () => actions.remove(c), danger: true },
          ]}
        />
      ),
    },
  ]
  return (
    <DataTable
      caption={t('nav.channels')}
      columns={columns}
      rows={rows}
      loading={loading}
      empty={empty}
      selection={{ selected, onChange: onSelect, rowLabel: (id) => t('common.selectRow', { name: names.get(id) ?? String(id) }) }}
    />
  )
}
