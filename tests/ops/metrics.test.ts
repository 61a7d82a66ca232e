import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'
import { startTestApp } from '../helpers/test-app'
import { parseExposition, promtoolCheck, sampleOf } from './helpers'
import { until } from '../helpers/wait'

let env: RelayEnv
let channelId: number
const chat = (body: Record<string, unknown>, key = env.key) =>
  env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })

beforeAll(async () => {
  env = await startRelayEnv()
  channelId = await env.addChannel({ type: 1, name: 'main "openai"' })
  env.upstream.setBehavior({ text: 'Hello there, friend.', usage: { input: 11, output: 7 } })
  expect((await chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
  const stream = await chat({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'hi' }] })
  expect(stream.status).toBe(200)
  await stream.text()
  // refused before any channel: an unknown model, and a bad key
  expect((await chat({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(404)
  expect((await chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, 'sk-wrong')).status).toBe(401)
  // an Anthropic client on the same channel (conversion)
  const messages = await env.app.fetch('/v1/messages', {
    method: 'POST',
    headers: { 'x-api-key': env.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }),
  })
  expect(messages.status).toBe(200)
})
afterAll(() => env.stop())

async function scrape(headers: Record<string, string> = {}) {
  const response = await env.app.fetch('/metrics', { headers })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  return parseExposition(await response.text())
}

test('GET /metrics parses as the Prometheus text format, every family typed and described', async () => {
  const { families } = await scrape()
  const names = families.map((f) => f.name)
  for (const name of [
    'tollgate_relay_requests_total',
    'tollgate_relay_request_duration_seconds',
    'tollgate_relay_time_to_first_token_seconds',
    'tollgate_relay_upstream_duration_seconds',
    'tollgate_relay_input_tokens_total',
    'tollgate_relay_output_tokens_total',
    'tollgate_relay_quota_total',
    'tollgate_relay_open_streams',
    'tollgate_channel_status',
    'tollgate_channel_consecutive_failures',
    'tollgate_log_writer_queue_rows',
    'tollgate_log_writer_flush_seconds',
    'process_cpu_seconds_total',
    'process_resident_memory_bytes',
  ]) {
    expect(names).toContain(name)
  }
  for (const family of families) {
    expect(family.help.length).toBeGreaterThan(10)
    expect(['COUNTER', 'GAUGE', 'HISTOGRAM']).toContain(family.type)
  }
})

test('relay series carry route, model, channel and the numeric HTTP status', async () => {
  const { samples } = await scrape()
  const ch = String(channelId)
  const chatOk = { route: '/v1/chat/completions', model: 'gpt-4o', channel: ch, status: '200' }
  expect(sampleOf(samples, 'tollgate_relay_requests_total', chatOk)?.value).toBe(2)
  expect(sampleOf(samples, 'tollgate_relay_requests_total', { route: '/v1/messages', model: 'gpt-4o', channel: ch, status: '200' })?.value).toBe(1)
  // refusals: no channel reached; a model no channel lists never becomes a label of its own
  expect(sampleOf(samples, 'tollgate_relay_requests_total', { route: '/v1/chat/completions', model: 'other', channel: '0', status: '404' })?.value).toBe(1)
  expect(sampleOf(samples, 'tollgate_relay_requests_total', { route: '/v1/chat/completions', channel: '0', status: '401' })?.value).toBe(1)
  expect(samples.some((s) => s.labels.model === 'no-such-model')).toBe(false)
  // histograms: two requests observed, a stream's time to first token, the upstream's own wait
  expect(sampleOf(samples, 'tollgate_relay_request_duration_seconds_count', chatOk)?.value).toBe(2)
  expect(sampleOf(samples, 'tollgate_relay_request_duration_seconds_bucket', { ...chatOk, le: '+Inf' })?.value).toBe(2)
  expect(sampleOf(samples, 'tollgate_relay_request_duration_seconds_sum', chatOk)!.value).toBeGreaterThan(0)
  expect(sampleOf(samples, 'tollgate_relay_time_to_first_token_seconds_count', chatOk)?.value).toBe(1)
  expect(sampleOf(samples, 'tollgate_relay_upstream_duration_seconds_count', chatOk)?.value).toBe(2)
  // tokens and quota as billed: the same quota as the usage log rows
  expect(sampleOf(samples, 'tollgate_relay_input_tokens_total', chatOk)?.value).toBe(22)
  expect(sampleOf(samples, 'tollgate_relay_output_tokens_total', chatOk)?.value).toBe(14)
  await env.app.deps.metering.logs.flush()
  const logged = env.app.db.$client.query<{ q: number }, []>("SELECT sum(quota) AS q FROM logs WHERE model_name = 'gpt-4o' AND type = 2").get()!.q
  const quota = sampleOf(samples, 'tollgate_relay_quota_total', chatOk)!.value + sampleOf(samples, 'tollgate_relay_quota_total', { route: '/v1/messages', status: '200' })!.value
  expect(quota).toBeGreaterThan(0)
  expect(quota).toBe(logged)
})

test('channel status and failures, open streams, the log writer and the process', async () => {
  const { samples } = await scrape()
  const channel = sampleOf(samples, 'tollgate_channel_status', { channel: String(channelId) })!
  expect(channel.value).toBe(1)
  expect(channel.labels.name).toBe('main "openai"') // escaped in the text, whole once parsed
  expect(sampleOf(samples, 'tollgate_channel_consecutive_failures', { channel: String(channelId) })?.value).toBe(0)
  expect(sampleOf(samples, 'tollgate_relay_open_streams')?.value).toBe(0)
  expect(sampleOf(samples, 'tollgate_log_writer_queue_rows')).toBeDefined()
  expect(sampleOf(samples, 'process_resident_memory_bytes')!.value).toBeGreaterThan(10 * 1024 * 1024)
  expect(sampleOf(samples, 'process_cpu_seconds_total')!.value).toBeGreaterThan(0)
  expect(sampleOf(samples, 'tollgate_build_info')?.value).toBe(1)
})

test('a failing channel shows its consecutive failures; the log writer its flushes', async () => {
  env.upstream.setBehavior({ error: { status: 500, message: 'boom' } })
  expect((await chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(503)
  env.upstream.setBehavior({ text: 'ok' })
  await env.app.deps.metering.logs.flush()
  const { samples } = await scrape()
  expect(sampleOf(samples, 'tollgate_channel_consecutive_failures', { channel: String(channelId) })?.value).toBe(1)
  expect(sampleOf(samples, 'tollgate_relay_requests_total', { route: '/v1/chat/completions', channel: String(channelId), status: '503' })?.value).toBe(1)
  expect(sampleOf(samples, 'tollgate_log_writer_flush_seconds_count')!.value).toBeGreaterThan(0)
  expect(sampleOf(samples, 'tollgate_log_writer_rows_total')!.value).toBeGreaterThan(0)
})

test('open streams are counted while they run', async () => {
  env.upstream.setBehavior({ text: ['a', 'b', 'c', 'd'], delayMs: 150 })
  const response = await chat({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'hi' }] })
  const reader = response.body!.getReader()
  await reader.read()
  const { samples } = await scrape()
  expect(sampleOf(samples, 'tollgate_relay_open_streams')?.value).toBe(1)
  while (!(await reader.read()).done) {}
  env.upstream.setBehavior({ text: 'ok' })
  await until(async () => sampleOf((await scrape()).samples, 'tollgate_relay_open_streams')?.value === 0, { what: 'no open stream' })
})

test.skipIf(!Bun.which('promtool'))("Prometheus' own parser and linter (promtool check metrics) find nothing to say", async () => {
  const text = await (await env.app.fetch('/metrics')).text()
  expect(promtoolCheck(text)).toBe('')
})
if (!Bun.which('promtool')) console.warn('metrics: promtool is missing (apt-get install prometheus): the promtool check is skipped')

describe('METRICS_TOKEN and METRICS_ENABLED', () => {
  test('with METRICS_TOKEN: a missing or wrong bearer token is a 401, the right one a 200', async () => {
    const app = await startTestApp({ METRICS_TOKEN: 'scrape-secret-123' })
    try {
      const none = await app.fetch('/metrics')
      expect(none.status).toBe(401)
      expect(none.headers.get('www-authenticate')).toContain('Bearer')
      expect((await app.fetch('/metrics', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401)
      expect((await app.fetch('/metrics', { headers: { authorization: 'Basic c2NyYXBl' } })).status).toBe(401)
      const ok = await app.fetch('/metrics', { headers: { authorization: 'Bearer scrape-secret-123' } })
      expect(ok.status).toBe(200)
      expect(parseExposition(await ok.text()).families.length).toBeGreaterThan(5)
    } finally {
      await app.stop()
    }
  })

  test('METRICS_ENABLED=false: no /metrics (404, not the console page)', async () => {
    const app = await startTestApp({ METRICS_ENABLED: 'false' })
    try {
      const response = await app.fetch('/metrics')
      expect(response.status).toBe(404)
      expect(await response.text()).not.toContain('<html')
    } finally {
      await app.stop()
    }
  })
})
