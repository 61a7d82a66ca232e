/** One channel's traffic over a period (the dashboard's and the Channels page's latency and errors). */
export interface ChannelStatRow {
  channelId: number
  /** consume and error rows */
  requests: number
  errors: number
  /** nearest-rank percentiles of the successful requests' duration, ms (0 when none succeeded) */
  p50Ms: number
  p95Ms: number
}

/** At most this many channels are answered (the busiest-first order is the caller's). */
const MAX_STAT_CHANNELS = 1000

/**
 * The one query both dialects run: window functions rank each channel's successful durations, then one pass groups.
 * `?` placeholders: start, end (unix seconds, inclusive).
 */
export const CHANNEL_STATS_SQL = `
WITH r AS (
  SELECT channel_id, type, use_time_ms,
    ROW_NUMBER() OVER (PARTITION BY channel_id, type ORDER BY use_time_ms) AS rn,
    COUNT(*) OVER (PARTITION BY channel_id, type) AS n
  FROM logs
  WHERE created_at >= $1 AND created_at <= $2 AND type IN (2, 5) AND channel_id > 0
)
SELECT channel_id AS channel_id,
  COUNT(*) AS requests,
  SUM(CASE WHEN type = 5 THEN 1 ELSE 0 END) AS errors,
  MIN(CASE WHEN type = 2 AND rn * 100 >= n * 50 THEN use_time_ms END) AS p50,
  MIN(CASE WHEN type = 2 AND rn * 100 >= n * 95 THEN use_time_ms END) AS p95
FROM r GROUP BY channel_id ORDER BY channel_id LIMIT ${MAX_STAT_CHANNELS}`

export function channelStatRow(raw: Record<string, unknown>): ChannelStatRow {
  return { channelId: Number(raw.channel_id), requests: Number(raw.requests), errors: Number(raw.errors ?? 0), p50Ms: Number(raw.p50 ?? 0), p95Ms: Number(raw.p95 ?? 0) }
}
