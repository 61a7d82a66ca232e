import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'
import { startTestApp, type TestApp } from '../helpers/test-app'

/**
 * A real Prometheus (Debian's package) scrapes the gateway with its METRICS_TOKEN, and its query API then
 * answers from what it stored: the exposition is what Prometheus reads, labels and histograms included.
 * Skipped where the prometheus binary is missing.
 */
const prometheus = Bun.which('prometheus')
if (!prometheus) console.warn('prometheus: the prometheus binary is missing (apt-get install prometheus): the scrape test is skipped')

let env: RelayEnv
let app: TestApp
let dir: string
let proc: import('bun').Subprocess | undefined
beforeAll(async () => {
  if (!prometheus) return
  env = await startRelayEnv()
  app = env.app
  await env.addChannel({ type: 1 })
  dir = mkdtempSync(join(tmpdir(), 'tollgate-prometheus-'))
})
afterAll(async () => {
  proc?.kill('SIGKILL')
  await proc?.exited
  await env?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test.skipIf(!prometheus)('Prometheus scrapes /metrics with the bearer token and answers PromQL over the relay series', async () => {
  // the relay env's app (relayed to, scraped as it is) and a second one with METRICS_TOKEN (scraped with
  // Prometheus' authorization.credentials)
  const guarded = await startTestApp({ METRICS_TOKEN: 'prom-scrape-token-1' })
  try {
    for (let i = 0; i < 3; i++) {
      const r = await app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }) })
      expect(r.status).toBe(200)
      await r.text()
    }
    const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
    const port = probe.port
    probe.stop(true)
    const target = (url: string) => url.replace('http://', '')
    writeFileSync(
      join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: tollgate\n    static_configs:\n      - targets: ['${target(app.url)}']\n  - job_name: guarded\n    authorization:\n      credentials: prom-scrape-token-1\n    static_configs:\n      - targets: ['${target(guarded.url)}']\n`,
    )
    proc = Bun.spawn([prometheus!, `--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], { stdout: 'ignore', stderr: 'pipe' })
    const api = `http://127.0.0.1:${port}/api/v1`
    const query = async (q: string) => ((await (await fetch(`${api}/query?query=${encodeURIComponent(q)}`)).json()) as any).data?.result ?? []
    let up: any[] = []
    for (let i = 0; i < 60; i++) {
      await Bun.sleep(500)
      up = await query('up').catch(() => [])
      if (up.length === 2 && up.every((s: any) => s.value[1] === '1')) break
    }
    expect(up.map((s: any) => [s.metric.job, s.value[1]]).sort()).toEqual([['guarded', '1'], ['tollgate', '1']])
    const requests = await query('sum by (route, model, status) (tollgate_relay_requests_total{job="tollgate"})')
    expect(requests.map((s: any) => [s.metric.route, s.metric.model, s.metric.status, s.value[1]])).toEqual([['/v1/chat/completions', 'gpt-4o', '200', '3']])
    const p50 = await query('histogram_quantile(0.5, sum by (le) (tollgate_relay_request_duration_seconds_bucket{job="tollgate"}))')
    expect(Number(p50[0].value[1])).toBeGreaterThan(0)
    const guardedSamples = await query('scrape_samples_scraped{job="guarded"}')
    expect(Number(guardedSamples[0].value[1])).toBeGreaterThan(20)
  } finally {
    await guarded.stop()
  }
}, 60_000)
