import type { ComponentChildren } from 'preact'
import { Button } from '../../components/button'
import { DataTable, type Column } from '../../components/data-table'
import { useQuotaFormat } from '../../components/quota'
import { RowMenu } from '../../components/row-menu'
import { StatusDot, type Tone } from '../../components/status-dot'
import { useI18n, type MessageKey } from '../../i18n'
import { PendingBadge } from './upstream-check'
import { channelTypeName } from '../../lib/channel-types'
import { errorWords } from '../../lib/error-words'
import type { ChannelStat } from '../../api/types'
import type { TrafficWindow } from '../../lib/channel-traffic'
import { formatNumber, formatTime, timeZoneName } from '../../lib/format'
import { TrafficCell } from './traffic'
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

/** Status, and the last test's failure under it: a failed test never leaves the row looking healthy. */
function ChannelHealth({ channel }: { channel: Channel }) {
  const { t, locale } = useI18n()
  const failure = channel.test_error
  if (!failure) return <ChannelStatusDot status={channel.status} />
  const words = errorWords(200, failure.message, { code: failure.code, status: failure.status, method: failure.method, url: failure.url }, locale, t)
  return (
    <div class="channel-health">
      <ChannelStatusDot status={channel.status} />
      <StatusDot tone="danger" label={t('channels.test.failedShort')} />
      <span class="channel-test-error" title={`${words}
${failure.method} ${failure.url} → ${failure.status || '—'}
${failure.message}`}>
        {words}
      </span>
    </div>
  )
}

/** `gpt-4o, gpt-4o-mini +3` */
function modelSummary(models: string, t: ReturnType<typeof useI18n>['t']): string {
  const list = models.split(',').filter(Boolean)
  if (list.length === 0) return t('channels.models.none')
  return list.length > 2 ? `${list.slice(0, 2).join(', ')} ${t('channels.models.moreShort', { count: list.length - 2 })}` : list.join(', ')
}

interface RowActions {
  edit(channel: Channel): void
  test(channel: Channel): void
  duplicate(channel: Channel): void
  toggle(channel: Channel): void
  remove(channel: Channel): void
  updateBalance(channel: Channel): void
  upstreamModels(channel: Channel): void
}

interface Props {
  rows: readonly Channel[] | undefined
  loading: boolean
  empty: ComponentChildren
  testing: ReadonlySet<number>
  selected: ReadonlySet<number>
  onSelect(next: Set<number>): void
  actions: RowActions
  /** each channel's figures over the period; undefined while they load */
  traffic: ReadonlyMap<number, ChannelStat> | undefined
  period: TrafficWindow
}

/** The channel list: status as dot + word, numbers right-aligned, the row's actions in its trailing menu. */
export function ChannelTable({ rows, loading, empty, testing, selected, onSelect, actions, traffic, period }: Props) {
  const { t, locale } = useI18n()
  const quota = useQuotaFormat()
  const names = new Map(rows?.map((row) => [row.id, row.name]))
  const columns: Column<Channel>[] = [
    {
      header: t('common.name'),
      class: 'wrap col-channel',
      cell: (c) => (
        <>
          <span class="channel-name">{c.name}</span> <span class="channel-id">#{c.id}</span> <PendingBadge channel={c} />
          {c.tag && <span class="chip channel-tag">{c.tag}</span>}
          {/* the address first: on a long type name it is what gets cut */}
          <span class="channel-where" title={c.base_url || undefined}>
            {c.base_url ? `${c.base_url} · ${channelTypeName(c.type)}` : channelTypeName(c.type)}
          </span>
          <span class="channel-models" title={c.models}>
            {t('channels.keyCount', { count: formatNumber(c.key_count, locale) })} · {modelSummary(c.models, t)}
          </span>
        </>
      ),
    },
    { header: t('common.status'), class: 'wrap col-health', card: 'key', cell: (c) => <ChannelHealth channel={c} /> },
    // one column for the two numbers that order the failover: the table fits 1280 px with its sticky actions
    { header: t('channels.col.priorityWeight'), cell: (c) => `${formatNumber(c.priority, locale)} / ${formatNumber(c.weight, locale)}`, numeric: true },
    { header: t('channelTraffic.column'), class: 'col-traffic', cell: (c) => <TrafficCell stat={traffic ? traffic.get(c.id) : 'loading'} period={period} /> },
    {
      header: t('channels.col.responseTime'),
      numeric: true,
      cell: (c) =>
        testing.has(c.id) ? (
          <span class="muted">{t('channels.test.running')}</span>
        ) : c.test_error ? (
          <span class="muted" title={t('channels.test.failedAt', { time: formatTime(c.test_time, locale) })}>—</span>
        ) : c.test_time ? (
          <span title={`${formatTime(c.test_time, locale)} (${timeZoneName()})`}>{t('channels.ms', { ms: formatNumber(c.response_time, locale) })}</span>
        ) : (
          <span class="muted" title={t('channels.test.never')}>—</span>
        ),
    },
    { header: t('channels.col.usedQuota'), cell: (c) => quota(c.used_quota), numeric: true },
    {
      header: t('channels.col.balance'),
      numeric: true,
      cell: (c) =>
        c.balance_updated_time ? (
          <span title={t('channels.balance.at', { time: `${formatTime(c.balance_updated_time, locale)} (${timeZoneName()})` })}>{formatNumber(c.balance, locale)}</span>
        ) : (
          <span class="muted" title={t('channels.balance.never')}>—</span>
        ),
    },
    {
      header: t('common.actions'),
      class: 'col-actions',
      cell: (c) => (
        <div class="row-actions">
          <Button variant="ghost" class="btn-small" onClick={() => actions.test(c)} busy={testing.has(c.id)} aria-label={t('channels.action.testNamed', { name: c.name })}>
            {t('channels.action.test')}
          </Button>
        <RowMenu
          name={c.name}
          actions={[
            { label: t('common.edit'), onSelect: () => actions.edit(c) },
            { label: t('channels.action.duplicate'), onSelect: () => actions.duplicate(c) },
            { label: t('channels.action.updateBalance'), onSelect: () => actions.updateBalance(c) },
            { label: t('channels.action.upstreamModels'), onSelect: () => actions.upstreamModels(c) },
            { label: c.status === ChannelStatus.enabled ? t('common.disable') : t('common.enable'), onSelect: () => actions.toggle(c) },
            { label: t('common.delete'), onSelect: () => actions.remove(c), danger: true },
          ]}
        />
        </div>
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
