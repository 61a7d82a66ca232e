import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import type { ChannelStat } from '../../api/types'
import { Segmented } from '../../components/segmented'
import { useI18n } from '../../i18n'
import { DEFAULT_TRAFFIC_WINDOW, hasLatency, isTrafficWindow, statsByChannel, TRAFFIC_WINDOWS, trafficRange, WARN_ERROR_RATE, type TrafficWindow } from '../../lib/channel-traffic'
import { useApi } from '../../state/use-api'

const WINDOW_KEY = 'tollgate.channels.window'

/** The period the figures cover, remembered in this browser. */
export function useTrafficWindow(): [TrafficWindow, (next: TrafficWindow) => void] {
  const [period, setPeriod] = useState<TrafficWindow>(() => {
    const saved = localStorage.getItem(WINDOW_KEY)
    return isTrafficWindow(saved) ? saved : DEFAULT_TRAFFIC_WINDOW
  })
  const choose = (next: TrafficWindow) => {
    localStorage.setItem(WINDOW_KEY, next)
    setPeriod(next)
  }
  return [period, choose]
}

/** Every channel's requests, errors and latency over the period, fetched again with each answer of the list (`list`). */
export function useChannelTraffic(period: TrafficWindow, list: unknown) {
  return useApi(async () => {
    if (list === undefined) return undefined // the list first: one call, not one before it and one after
    const range = trafficRange(period, Math.floor(Date.now() / 1000))
    return statsByChannel((await api.get<{ items: ChannelStat[] }>('/api/data/channel_stats', range)).items)
  }, [period, list])
}

export function TrafficWindowPicker({ value, onChange }: { value: TrafficWindow; onChange(next: TrafficWindow): void }) {
  const { t } = useI18n()
  const windows = Object.keys(TRAFFIC_WINDOWS) as TrafficWindow[]
  return <Segmented label={t('channelTraffic.window')} value={value} options={windows.map((w) => ({ value: w, label: t(`channelTraffic.window.${w}`) }))} onChange={onChange} />
}

/** Two short lines in the row — requests and error rate, then p50/p95 — and the same in words on hover. */
export function TrafficCell({ stat, period }: { stat: ChannelStat | undefined | 'loading'; period: TrafficWindow }) {
  const { t, locale } = useI18n()
  const span = t(`channelTraffic.span.${period}`)
  if (stat === 'loading') return <span class="muted">…</span>
  if (!stat) return <span class="muted" title={t('channelTraffic.none', { window: span })}>{t('channelTraffic.noneShort')}</span>
  const number = new Intl.NumberFormat(locale)
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(stat.error_rate)
  const latency = hasLatency(stat)
    ? t('channelTraffic.latency', { p50: number.format(stat.p50_ms), p95: number.format(stat.p95_ms) })
    : t('channelTraffic.noLatency')
  const words = t('channelTraffic.summary', { window: span, requests: number.format(stat.requests), errors: number.format(stat.errors), rate: percent }) + '\n' + latency
  return (
    <span class="channel-traffic" title={words}>
      <span>
        {t('channelTraffic.requests', { count: number.format(stat.requests) })}{' '}
        <span class={stat.error_rate >= WARN_ERROR_RATE ? 'traffic-bad' : 'muted'}>{t('channelTraffic.errorRate', { rate: percent })}</span>
      </span>
      <span class="muted">{hasLatency(stat) ? t('channelTraffic.latencyShort', { p50: number.format(stat.p50_ms), p95: number.format(stat.p95_ms) }) : '—'}</span>
    </span>
  )
}
