import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createRelayMetrics } from '../../src/telemetry/metrics'
import { RELAY_ROUTES } from '../../src/telemetry/relay-routes'
import { OPERATIONS } from '../../src/operations'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'
import { rawRequest } from '../hardening/raw-request'
import { parseExposition, sampleOf, type Sample } from './helpers'

/**
 * Issue #28, bounded state: every label of the relay series comes from a closed set. `route` from the route
 * table, `model` only when some channel lists it (else `other`), `channel` an id, `status` an HTTP status. A
 * stranger's paths, model names and keys add no series.
 */
describe('the recorder', () => {
  const listed = new Set(['gpt-4o'])
  const labelsOf = (m: ReturnType<typeof createRelayMetrics>) => [...m.series()].map((s) => s.labels)

  test('100,000 model names no channel lists: one series, model="other"', () => {
    const m = createRelayMetrics((model) => listed.has(model))
    for (let i = 0; i < 100_000; i++) m.observe('/v1/chat/completions', `m${i}`, 0, 404, 1)
    expect(labelsOf(m)).toEqual(['route="/v1/chat/completions",model="other",channel="0",status="404"'])
    expect([...m.series()][0]!.series.requests).toBe(100_000)
  })

  test('a listed model is its own label; a route outside the table and an odd status are not', () => {
    const m = createRelayMetrics((model) => listed.has(model))
    m.observe('/v1/chat/completions', 'gpt-4o', 3, 200, 1)
    m.observe('/v1/chat/completions/x', 'gpt-4o', 3, 200, 1)
    m.observe('/v1/chat/completions', 'gpt-4o', 3, 1234, 1)
    m.observe('/v1/chat/completions', 'gpt-4o', 3, 99.5, 1)
    expect(labelsOf(m).sort()).toEqual([
      'route="/v1/chat/completions",model="gpt-4o",channel="3",status="0"',
      'route="/v1/chat/completions",model="gpt-4o",channel="3",status="200"',
      'route="other",model="gpt-4o",channel="3",status="200"',
    ])
  })

  test('the route table holds every relay route: chat, Gemini and each operation (aliases under their main path)', () => {
    for (const route of ['/v1/chat/completions', '/pg/chat/completions', '/v1/responses', '/v1/messages', '/v1beta/models/{model}:generateContent', '/v1beta/models/{model}:streamGenerateContent']) {
      expect(RELAY_ROUTES.has(route)).toBe(true)
    }
    for (const op of OPERATIONS) expect(RELAY_ROUTES.has(op.path)).toBe(true)
    expect(RELAY_ROUTES.has('/v1/beta/completions')).toBe(false)
  })
})

describe('the gateway', () => {
  let env: RelayEnv
  let samples: Sample[]
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    env.app.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  const chat = (model: string) => post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] }, { authorization: `Bearer ${env.key}` })

  beforeAll(async () => {
    env = await startRelayEnv()
    await env.addChannel({ type: 1, name: 'main' })
    // a disabled channel's models are the operator's names too
    await env.addChannel({ type: 1, name: 'off', models: 'resting-model', status: 2 })
    env.upstream.setBehavior({ text: 'ok' })
    expect((await chat('gpt-4o')).status).toBe(200)
    expect((await chat('never-listed')).status).toBe(404)
    expect((await chat('resting-model')).status).not.toBe(200)
    // anonymous: every relay route is counted under its own label, the model only when listed
    expect((await post('/v1/embeddings', { model: 'gpt-4o', input: 'x' })).status).toBe(401)
    expect((await post('/v1/beta/completions', { model: 'gpt-4o', prompt: 'x' })).status).toBe(401)
    expect((await post('/v1/no-such-route', { model: 'gpt-4o' })).status).toBe(404)
    const declared = { 'content-type': 'application/json', 'content-length': '999999999' }
    expect(await rawRequest(env.app.url, { method: 'POST', path: '/v1beta/models/gemini-2.5-flash:generateContent', headers: declared })).toBe(413)
    expect(await rawRequest(env.app.url, { method: 'POST', path: '/v1beta/models/made-up-9:generateContent', headers: declared })).toBe(413)
    samples = parseExposition(await (await env.app.fetch('/metrics')).text()).samples.filter((s) => s.name === 'tollgate_relay_requests_total')
  })
  afterAll(() => env.stop())

  const count = (labels: Record<string, string>) => sampleOf(samples, 'tollgate_relay_requests_total', labels)?.value

  test('models: listed ones by name (a disabled channel lists too), any other as "other"', () => {
    expect(count({ route: '/v1/chat/completions', model: 'gpt-4o', status: '200' })).toBe(1)
    expect(count({ route: '/v1/chat/completions', model: 'other', status: '404' })).toBe(1)
    expect(samples.find((s) => s.labels.model === 'resting-model')).toBeDefined()
    expect(count({ route: '/v1beta/models/{model}:generateContent', model: 'gemini-2.5-flash', status: '413' })).toBe(1)
    expect(count({ route: '/v1beta/models/{model}:generateContent', model: 'other', status: '413' })).toBe(1)
    expect(samples.map((s) => s.labels.model)).not.toContain('never-listed')
    expect(samples.map((s) => s.labels.model)).not.toContain('made-up-9')
  })

  test('routes: the operations are counted too, an alias under its main path, an unknown path not at all', () => {
    expect(count({ route: '/v1/embeddings', status: '401' })).toBe(1)
    expect(count({ route: '/v1/completions', status: '401' })).toBe(1)
    for (const s of samples) expect(RELAY_ROUTES.has(s.labels.route!)).toBe(true)
  })

  test('a model added to a channel becomes a label from its next request', async () => {
    const main = env.app.deps.routing.channels.all().find((c) => c.name === 'main')!
    await env.app.deps.routing.channels.update(main.id, { models: 'gpt-4o,claude-sonnet-4-5,gemini-2.5-flash,fresh-model' })
    expect((await chat('fresh-model')).status).toBe(200)
    const text = await (await env.app.fetch('/metrics')).text()
    expect(text).toContain(`tollgate_relay_requests_total{route="/v1/chat/completions",model="fresh-model",channel="${main.id}",status="200"} 1`)
  })
})
