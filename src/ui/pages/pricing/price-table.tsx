import type { ComponentChildren } from 'preact'
import { Button } from '../../components/button'
import { DataTable, type Column } from '../../components/data-table'
import { StatusDot } from '../../components/status-dot'
import { TierLines } from '../../components/tier-lines'
import { useI18n } from '../../i18n'
import { formatDollars } from '../../lib/format'
import type { PriceItem } from './types'

const SHOWN_CHANNELS = 3

interface Props {
  items: readonly PriceItem[] | undefined
  loading: boolean
  empty: ComponentChildren
  /** the admin list: each model's channels */
  showChannels?: boolean
  /** root: a "Set price" button per row */
  onSetPrice?(item: PriceItem): void
}

/** Models with their prices: US$ per 1M tokens or per call, the ratios behind them, "No price" flagged. */
export function PriceTable({ items, loading, empty, showChannels, onSetPrice }: Props) {
  const { t, locale } = useI18n()
  const usd = (value: number | undefined) => (value === undefined ? <span class="muted">—</span> : formatDollars(value, locale))
  const token = (item: PriceItem, value: number | undefined) => (item.mode === 'ratio' ? usd(value) : <span class="muted">—</span>)
  const ratio = (value: number | undefined) => (value === undefined ? '—' : new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(value))
  const columns: Column<PriceItem & { id: number }>[] = [
    {
      header: t('pricing.col.model'),
      cell: (item) => (
        <span class="price-model">
          <span class="price-model-name">{item.model}</span>
          {!item.priced && <StatusDot tone="warning" label={item.mode === 'free' ? `${t('pricing.noPrice')} (${t('pricing.free')})` : t('pricing.noPrice')} />}
          {item.tiers && <TierLines tiers={item.tiers} />}
        </span>
      ),
    },
    ...(showChannels
      ? [
          {
            header: t('pricing.col.channels'),
            class: 'price-channels',
            cell: (item: PriceItem) => {
              const list = item.channels ?? []
              if (list.length === 0) return <span class="muted">{t('pricing.channels.none')}</span>
              return (
                <>
                  {list.slice(0, SHOWN_CHANNELS).map((channel) => (
                    <span key={channel.id} class={channel.status === 1 ? 'chip' : 'chip chip-off'} title={channel.status === 1 ? undefined : t('pricing.channels.off')}>
                      {channel.name}
                      {channel.status !== 1 && <span class="visually-hidden"> ({t('pricing.channels.off')})</span>}
                    </span>
                  ))}
                  {list.length > SHOWN_CHANNELS && <span class="muted">{t('pricing.channels.more', { count: list.length - SHOWN_CHANNELS })}</span>}
                </>
              )
            },
          },
        ]
      : []),
    { header: t('pricing.col.input'), numeric: true, card: 'key', cell: (item) => token(item, item.input) },
    { header: t('pricing.col.output'), numeric: true, cell: (item) => token(item, item.output) },
    { header: t('pricing.col.cacheRead'), numeric: true, cell: (item) => token(item, item.cache_read) },
    { header: t('pricing.col.cacheWrite'), numeric: true, cell: (item) => token(item, item.cache_write) },
    { header: t('pricing.col.perCall'), numeric: true, cell: (item) => (item.mode === 'call' ? usd(item.per_call) : <span class="muted">—</span>) },
    {
      header: t('pricing.col.ratios'),
      class: 'price-ratios',
      cell: (item) =>
        item.mode === 'ratio' ? (
          <span class="muted">{[item.model_ratio, item.completion_ratio, item.cache_ratio, item.create_cache_ratio].map(ratio).join(' / ')}</span>
        ) : item.mode === 'call' ? (
          <span class="muted">{formatDollars(item.model_price ?? 0, locale)}</span>
        ) : (
          <span class="muted">—</span>
        ),
    },
    ...(onSetPrice
      ? [
          {
            header: t('common.actions'),
            class: 'col-actions',
            cell: (item: PriceItem) => (
              <Button class="btn-small" aria-label={t('pricing.set.buttonFor', { model: item.model })} onClick={() => onSetPrice(item)}>
                {t('pricing.set.button')}
              </Button>
            ),
          },
        ]
      : []),
  ]
  const rows = items?.map((item, i) => ({ ...item, id: i + 1 }))
  return <DataTable caption={t('nav.pricing')} columns={columns} rows={rows} loading={loading} empty={empty} />
}
