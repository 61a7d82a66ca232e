import { readdirSync } from 'node:fs'
import type { Metering } from '../metering'
import type { Routing } from '../relay/routing'
import { VERSION } from '../version'
import type { Ops } from '.'
import { escapeLabel, TextWriter } from './metrics'

/** The content type Prometheus asks for and this writer produces (text exposition format 0.0.4). */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

export interface ScrapeContext {
  /** requests the HTTP server is serving now (streams included), when a server runs */
  pendingRequests?: number
  /** consecutive failures per channel, counted on every node (`coord.allChannelFailures()`); absent ones are 0 */
  channelFailures?: ReadonlyMap<number, number>
}

/**
 * The whole exposition, collected now: the relay series recorded as requests ended, and what is read at
 * scrape time (channels, log writer, process). Costs one pass over the series; nothing is cached.
 */
export function renderMetrics(deps: { ops: Ops; routing: Pick<Routing, 'channels'>; metering: Pick<Metering, 'logs'> }, ctx: ScrapeContext = {}): string {
  const w = new TextWriter()
  const { ops } = deps
  const metrics = ops.metrics
  const relay = metrics ? [...metrics.series()] : []

  w.family('tollgate_relay_requests_total', 'counter', 'Relay generation requests by route, model, channel (0: none reached) and HTTP status.')
  for (const { labels, series } of relay) w.sample('tollgate_relay_requests_total', labels, series.requests)
  w.family('tollgate_relay_request_duration_seconds', 'histogram', 'Relay request latency, from arrival to the end of the answer (a stream: its last byte).')
  for (const { labels, series } of relay) w.histogram('tollgate_relay_request_duration_seconds', labels, series.latency)
  w.family('tollgate_relay_time_to_first_token_seconds', 'histogram', 'Streams: from arrival to the first content sent to the client.')
  for (const { labels, series } of relay) if (series.ttft.count > 0) w.histogram('tollgate_relay_time_to_first_token_seconds', labels, series.ttft)
  w.family('tollgate_relay_upstream_duration_seconds', 'histogram', "The upstream's own wait: from sending to its answer (a stream: its first content).")
  for (const { labels, series } of relay) if (series.upstream.count > 0) w.histogram('tollgate_relay_upstream_duration_seconds', labels, series.upstream)
  w.family('tollgate_relay_input_tokens_total', 'counter', 'Prompt tokens billed (cache reads and writes included).')
  for (const { labels, series } of relay) w.sample('tollgate_relay_input_tokens_total', labels, series.inputTokens)
  w.family('tollgate_relay_output_tokens_total', 'counter', 'Completion tokens billed (reasoning included).')
  for (const { labels, series } of relay) w.sample('tollgate_relay_output_tokens_total', labels, series.outputTokens)
  w.family('tollgate_relay_quota_total', 'counter', 'Quota taken from balances (500000 = US$1 at the default QuotaPerUnit).')
  for (const { labels, series } of relay) w.sample('tollgate_relay_quota_total', labels, series.quota)

  w.family('tollgate_relay_open_streams', 'gauge', 'Relay streams open to clients now.')
  w.sample('tollgate_relay_open_streams', '', ops.streams.size)
  w.family('tollgate_relay_upstream_requests_in_flight', 'gauge', 'Upstream requests in flight now: open streams and attempts waiting for their answer.')
  w.sample('tollgate_relay_upstream_requests_in_flight', '', ops.streams.inFlight)
  if (ctx.pendingRequests !== undefined) {
    w.family('tollgate_http_requests_in_flight', 'gauge', 'HTTP requests being served now (open streams included).')
    w.sample('tollgate_http_requests_in_flight', '', ctx.pendingRequests)
  }

  const channels = deps.routing.channels.all().sort((a, b) => a.id - b.id)
  w.family('tollgate_channel_status', 'gauge', 'Channel status: 1 enabled, 2 disabled by hand, 3 disabled automatically.')
  for (const c of channels) w.sample('tollgate_channel_status', channelLabels(c), c.status)
  w.family('tollgate_channel_consecutive_failures', 'gauge', 'Consecutive failed relay attempts per channel (reset by a success).')
  for (const c of channels) w.sample('tollgate_channel_consecutive_failures', channelLabels(c), ctx.channelFailures?.get(c.id) ?? 0)

  const logs = deps.metering.logs
  w.family('tollgate_log_writer_queue_rows', 'gauge', 'Usage log rows waiting for the next batch.')
  w.sample('tollgate_log_writer_queue_rows', '', logs.pending)
  w.family('tollgate_log_writer_flush_seconds', 'histogram', 'Time one batch of log rows and quota moves held the event loop (commit, or hand-over to the writer thread).')
  w.histogram('tollgate_log_writer_flush_seconds', '', ops.flush.time)
  w.family('tollgate_log_writer_rows_total', 'counter', 'Usage log rows written.')
  w.sample('tollgate_log_writer_rows_total', '', ops.flush.rows)
  w.family('tollgate_log_writer_failures_total', 'counter', 'Batches that failed to commit (kept and retried).')
  w.sample('tollgate_log_writer_failures_total', '', ops.flush.failures)

  if (ops.backup) {
    w.family('tollgate_backup_last_success_timestamp_seconds', 'gauge', 'When the last scheduled backup succeeded (0: none yet), in seconds since the Unix epoch.')
    w.sample('tollgate_backup_last_success_timestamp_seconds', '', Math.floor(ops.backup.lastSuccessAt / 1000))
    w.family('tollgate_backup_failures_total', 'counter', 'Scheduled backups that failed.')
    w.sample('tollgate_backup_failures_total', '', ops.backup.failures)
  }
  w.family('tollgate_draining', 'gauge', '1 once SIGTERM was received and the process is draining.')
  w.sample('tollgate_draining', '', ops.draining ? 1 : 0)
  w.family('tollgate_build_info', 'gauge', 'The running version (always 1).')
  w.sample('tollgate_build_info', `version="${escapeLabel(VERSION)}",bun="${escapeLabel(Bun.version)}"`, 1)

  const cpu = process.cpuUsage()
  const memory = process.memoryUsage()
  w.family('process_cpu_user_seconds_total', 'counter', 'User CPU time spent, in seconds.')
  w.sample('process_cpu_user_seconds_total', '', cpu.user / 1e6)
  w.family('process_cpu_system_seconds_total', 'counter', 'System CPU time spent, in seconds.')
  w.sample('process_cpu_system_seconds_total', '', cpu.system / 1e6)
  w.family('process_cpu_seconds_total', 'counter', 'User and system CPU time spent, in seconds.')
  w.sample('process_cpu_seconds_total', '', (cpu.user + cpu.system) / 1e6)
  w.family('process_resident_memory_bytes', 'gauge', 'Resident memory size, in bytes.')
  w.sample('process_resident_memory_bytes', '', memory.rss)
  w.family('process_heap_bytes', 'gauge', 'JavaScript heap in use, in bytes.')
  w.sample('process_heap_bytes', '', memory.heapUsed)
  w.family('process_start_time_seconds', 'gauge', 'When the process started, in seconds since the Unix epoch.')
  w.sample('process_start_time_seconds', '', Math.floor((Date.now() - performance.now()) / 1000))
  const fds = openFds()
  if (fds !== undefined) {
    w.family('process_open_fds', 'gauge', 'Open file descriptors.')
    w.sample('process_open_fds', '', fds)
  }
  return w.text()
}

function channelLabels(c: { id: number; name: string; type: number }): string {
  return `channel="${c.id}",name="${escapeLabel(c.name)}",type="${c.type}"`
}

function openFds(): number | undefined {
  if (process.platform !== 'linux') return undefined
  try {
    return readdirSync('/proc/self/fd').length
  } catch {
    return undefined
  }
}
