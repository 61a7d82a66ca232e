/**
 * Tollgate's own metrics writer (src/telemetry/metrics.ts) against prom-client for the same relay series: the cost of
 * recording one finished request (a counter, three histograms, three counters, four labels) and of one scrape.
 *
 *   bun bench/metrics-writer.ts [--n=1000000]
 *
 * Per observation: nanoseconds (prom-client also builds a label object per call, and hashes it into a string
 * key in each metric it touches; ours walks maps keyed by the values).
 */
import { Counter, Histogram, Registry } from 'prom-client'
import { createRelayMetrics, LATENCY_BUCKETS, TextWriter } from '../src/telemetry/metrics'

const N = Number(Bun.argv.find((a) => a.startsWith('--n='))?.slice(4) ?? 1_000_000)
const models = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-flash']
const routes = ['/v1/chat/completions', '/v1/messages', '/v1/responses']

function ours() {
  // the label check as the gateway makes it: a set of the models the channels list
  const listed = new Set(models)
  const m = createRelayMetrics((model) => listed.has(model))
  return {
    observe(i: number) {
      m.observe(routes[i % 3]!, models[i & 3]!, 1 + (i & 1), 200, 120 + (i & 255), (i & 1) === 0 ? 80 : undefined, 100, 10, 20, 113)
    },
    scrape() {
      const w = new TextWriter()
      for (const { labels, series } of m.series()) w.sample('tollgate_relay_requests_total', labels, series.requests).histogram('tollgate_relay_request_duration_seconds', labels, series.latency)
      return w.text()
    },
  }
}

function promClient() {
  const registry = new Registry()
  const labelNames = ['route', 'model', 'channel', 'status'] as const
  const requests = new Counter({ name: 'tollgate_relay_requests_total', help: 'h', labelNames, registers: [registry] })
  const latency = new Histogram({ name: 'tollgate_relay_request_duration_seconds', help: 'h', labelNames, buckets: [...LATENCY_BUCKETS], registers: [registry] })
  const ttft = new Histogram({ name: 'tollgate_relay_time_to_first_token_seconds', help: 'h', labelNames, buckets: [...LATENCY_BUCKETS], registers: [registry] })
  const upstream = new Histogram({ name: 'tollgate_relay_upstream_duration_seconds', help: 'h', labelNames, buckets: [...LATENCY_BUCKETS], registers: [registry] })
  const tokensIn = new Counter({ name: 'tollgate_relay_input_tokens_total', help: 'h', labelNames, registers: [registry] })
  const tokensOut = new Counter({ name: 'tollgate_relay_output_tokens_total', help: 'h', labelNames, registers: [registry] })
  const quota = new Counter({ name: 'tollgate_relay_quota_total', help: 'h', labelNames, registers: [registry] })
  return {
    observe(i: number) {
      const labels = { route: routes[i % 3]!, model: models[i & 3]!, channel: String(1 + (i & 1)), status: '200' }
      requests.inc(labels)
      latency.observe(labels, (120 + (i & 255)) / 1000)
      if ((i & 1) === 0) ttft.observe(labels, 0.08)
      upstream.observe(labels, 0.1)
      tokensIn.inc(labels, 10)
      tokensOut.inc(labels, 20)
      quota.inc(labels, 113)
    },
    scrape: () => registry.metrics(),
  }
}

async function measure(name: string, impl: { observe(i: number): void; scrape(): string | Promise<string> }) {
  for (let i = 0; i < 200_000; i++) impl.observe(i)
  Bun.gc(true)
  const t = performance.now()
  for (let i = 0; i < N; i++) impl.observe(i)
  const ns = ((performance.now() - t) * 1e6) / N
  const s = performance.now()
  for (let i = 0; i < 100; i++) await impl.scrape()
  const scrapeMs = (performance.now() - s) / 100
  return { name, nsPerObservation: Math.round(ns), scrapeMs: Number(scrapeMs.toFixed(3)) }
}

const a = await measure('tollgate (src/telemetry/metrics.ts)', ours())
const b = await measure('prom-client 15.1.3', promClient())
console.log(JSON.stringify({ observations: N, results: [a, b], ratio: Number((b.nsPerObservation / a.nsPerObservation).toFixed(1)) }, null, 2))
