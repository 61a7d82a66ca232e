import type { ChannelStat } from '../api/types'

/** An error rate from which a channel's figures are shown in the danger colour. */
export const WARN_ERROR_RATE = 0.05

/** The windows the Channels page offers for its per-channel figures (the API answers at most 31 days). */
export const TRAFFIC_WINDOWS = { '1h': 3_600, '24h': 86_400, '7d': 7 * 86_400, '30d': 30 * 86_400 } as const
export type TrafficWindow = keyof typeof TRAFFIC_WINDOWS
export const DEFAULT_TRAFFIC_WINDOW: TrafficWindow = '24h'

export const isTrafficWindow = (value: unknown): value is TrafficWindow => typeof value === 'string' && Object.hasOwn(TRAFFIC_WINDOWS, value)

/** The query of `GET /api/data/channel_stats` for the window ending at `now` (unix seconds). */
export function trafficRange(window: TrafficWindow, now: number): { start_timestamp: number; end_timestamp: number } {
  return { start_timestamp: now - TRAFFIC_WINDOWS[window], end_timestamp: now }
}

/** The API's rows by channel id: a channel with no row served no request in the window. */
export function statsByChannel(items: readonly ChannelStat[]): Map<number, ChannelStat> {
  return new Map(items.map((item) => [item.channel_id, item]))
}

/** Latency is measured on successful requests only: a channel whose every request failed has none to show. */
export const hasLatency = (stat: ChannelStat) => stat.requests > stat.errors
