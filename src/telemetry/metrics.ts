/**
 * The gateway's Prometheus series, kept as plain numbers and written out in the text exposition format
 * (version 0.0.4) only when scraped. Recording a relay request walks four nested maps (route → model → channel
 * → status, keyed by the values themselves: no label string is built) and adds to numbers and bucket arrays
 * already allocated; only the first request of a new label combination allocates its series. Every label comes
 * from a closed set (routes from the route table, models some channel lists, channel ids, HTTP statuses).
 *
 * Why not prom-client: its `labels(...).observe()` hashes a label object into a string key on every call (an
 * object and a string per observation, three histograms per request), and it brings its own default process
 * collectors and OpenTelemetry hooks. `bench/metrics-writer.ts` measures both: see bench/README.md.
 */

import { OTHER_ROUTE, RELAY_ROUTES } from './relay-routes'

/** Seconds: relay requests run from a few milliseconds (errors) to minutes (long streams). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300] as const
/** Seconds: one log batch commits in microseconds to milliseconds (or waits on a locked file). */
const FLUSH_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1] as const

export class Histogram {
  /** per bucket, not cumulative; the last is +Inf */
  readonly counts: Float64Array
  sum = 0
  count = 0
  constructor(readonly buckets: readonly number[]) {
    this.counts = new Float64Array(buckets.length + 1)
  }
  observe(value: number): void {
    const b = this.buckets
    let i = 0
    while (i < b.length && value > b[i]!) i++
    this.counts[i]!++
    this.sum += value
    this.count++
  }
}

/** One relay label combination. */
export class RelaySeries {
  requests = 0
  inputTokens = 0
  outputTokens = 0
  quota = 0
  readonly latency = new Histogram(LATENCY_BUCKETS)
  readonly ttft = new Histogram(LATENCY_BUCKETS)
  readonly upstream = new Histogram(LATENCY_BUCKETS)
}

/** The `model` label of a model no channel lists: the client's word never becomes a label. */
const OTHER_MODEL = 'other'

/**
 * `isModel` tells the models some channel lists (the channel store's set); only those become label values, so the
 * series are bounded by routes × configured models × channels × statuses, whatever clients send.
 */
export function createRelayMetrics(isModel: (model: string) => boolean) {
  const tree = new Map<string, Map<string, Map<number, Map<number, RelaySeries>>>>()

  function seriesOf(route: string, model: string, channel: number, status: number): RelaySeries {
    let byModel = tree.get(route)
    if (!byModel) tree.set(route, (byModel = new Map()))
    let byChannel = byModel.get(model)
    if (!byChannel) byModel.set(model, (byChannel = new Map()))
    let byStatus = byChannel.get(channel)
    if (!byStatus) byChannel.set(channel, (byStatus = new Map()))
    let series = byStatus.get(status)
    if (!series) byStatus.set(status, (series = new RelaySeries()))
    return series
  }

  return {
    /**
     * One finished relay request (positional, so recording allocates nothing). Times in milliseconds; a time
     * that did not happen (no stream, no upstream answer) is undefined.
     */
    observe(
      route: string,
      model: string,
      channel: number,
      status: number,
      latencyMs: number,
      ttftMs?: number,
      upstreamMs?: number,
      inputTokens = 0,
      outputTokens = 0,
      quota = 0,
    ): void {
      const s = seriesOf(
        RELAY_ROUTES.has(route) ? route : OTHER_ROUTE,
        isModel(model) ? model : OTHER_MODEL,
        channel,
        // an HTTP status, or 0: an upstream's odd number is no new series
        status >= 100 && status <= 599 ? status | 0 : 0,
      )
      s.requests++
      s.latency.observe(latencyMs / 1000)
      if (ttftMs !== undefined) s.ttft.observe(ttftMs / 1000)
      if (upstreamMs !== undefined) s.upstream.observe(upstreamMs / 1000)
      s.inputTokens += inputTokens
      s.outputTokens += outputTokens
      s.quota += quota
    },
    /** every series with its labels, for the writer */
    *series(): Generator<{ labels: string; series: RelaySeries }> {
      for (const [route, byModel] of tree)
        for (const [model, byChannel] of byModel)
          for (const [channel, byStatus] of byChannel)
            for (const [status, series] of byStatus)
              yield { labels: `route="${escapeLabel(route)}",model="${escapeLabel(model)}",channel="${channel}",status="${status}"`, series }
    },
  }
}

export type RelayMetrics = ReturnType<typeof createRelayMetrics>

/** The log writer's batches: how long each took the main thread, and how many rows. */
export function createFlushMetrics() {
  const time = new Histogram(FLUSH_BUCKETS)
  let rows = 0
  let failures = 0
  return {
    time,
    observe(ms: number, written: number): void {
      time.observe(ms / 1000)
      rows += written
    },
    failed(): void {
      failures++
    },
    get rows(): number {
      return rows
    },
    get failures(): number {
      return failures
    },
  }
}

export type FlushMetrics = ReturnType<typeof createFlushMetrics>

/** A label value as the exposition format wants it: backslash, double quote and line feed escaped. */
export function escapeLabel(value: string): string {
  return /["\\\n]/.test(value) ? value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') : value
}

/** Builds one exposition: HELP and TYPE once per family, then its samples. */
export class TextWriter {
  private out: string[] = []

  family(name: string, type: 'counter' | 'gauge' | 'histogram', help: string): this {
    this.out.push(`# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`)
    return this
  }

  sample(name: string, labels: string, value: number): this {
    this.out.push(`${name}${labels ? `{${labels}}` : ''} ${formatValue(value)}\n`)
    return this
  }

  histogram(name: string, labels: string, h: Histogram): this {
    const sep = labels ? `${labels},` : ''
    let cumulative = 0
    for (let i = 0; i < h.buckets.length; i++) {
      cumulative += h.counts[i]!
      this.out.push(`${name}_bucket{${sep}le="${h.buckets[i]}"} ${cumulative}\n`)
    }
    this.out.push(`${name}_bucket{${sep}le="+Inf"} ${h.count}\n`)
    this.out.push(`${name}_sum${labels ? `{${labels}}` : ''} ${formatValue(h.sum)}\n`)
    this.out.push(`${name}_count${labels ? `{${labels}}` : ''} ${h.count}\n`)
    return this
  }

  text(): string {
    return this.out.join('')
  }
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (value === Infinity) return '+Inf'
  if (value === -Infinity) return '-Inf'
  return String(value)
}
