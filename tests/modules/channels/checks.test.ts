import { afterAll, beforeAll, expect, test } from 'bun:test'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { fakeUpstream, userHeaders } from './helpers'

let app: TestApp
let admin: Record<string, string>
const upstream = fakeUpstream((req, url) => {
  const auth = req.headers.get('authorization') ?? req.headers.get('x-api-key') ?? req.headers.get('x-goog-api-key') ?? ''
  if (auth.includes('echo')) return Response.json({ error: { message: `Incorrect API key provided: ${auth.replace('Bearer ', '')}` } }, { status: 401 })
  if (auth.includes('bad')) return Response.json({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }, { status: 401 })
  if (url.pathname.endsWith('/chat/completions')) {
    return Response.json({ id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'length' }] })
  }
  if (url.pathname === '/v1/messages') {
    return Response.json({ id: 'm1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'h' }], stop_reason: 'max_tokens' })
  }
  if (url.pathname.includes(':generateContent')) return Response.json({ candidates: [{ content: { parts: [{ text: 'h' }] } }] })
  if (url.pathname === '/v1/models') return Response.json({ object: 'list', data: [{ id: 'gpt-4o' }, { id: 'gpt-4o-mini' }, { id: 'gpt-4o' }] })
  if (url.pathname === '/v1beta/models') return Response.json({ models: [{ name: 'models/gemini-2.5-flash' }, { name: 'models/gemini-2.5-pro' }] })
  return new Response('not here', { status: 404 })
})

beforeAll(async () => {
  app = await startTestApp()
  admin = await userHeaders(app)
})
afterAll(async () => {
  await app.stop()
  upstream.stop()
})

async function make(body: Record<string, unknown>): Promise<number> {
  const res = await call(app, 'POST', '/api/channel/', { name: 'c', base_url: upstream.url, ...body }, admin)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data.id
}

test('channel test sends a minimal chat request through the provider and records the timing', async () => {
  const id = await make({ type: 1, key: 'sk-good-1\nsk-good-2', models: 'gpt-4o', model_mapping: { 'gpt-4o': 'gpt-4o-2024-08-06' } })
  upstream.seen.length = 0
  const res = await call(app, 'GET', `/api/channel/test/${id}`, undefined, admin)
  expect(res.status).toBe(200)
  expect(res.body.success).toBe(true)
  expect(res.body.data).toMatchObject({ status_code: 200, model: 'gpt-4o', upstream_model: 'gpt-4o-2024-08-06' })
  expect(res.body.data.time_ms).toBeGreaterThanOrEqual(0)
  const sent = upstream.seen[0]!
  expect(sent.path).toBe('/v1/chat/completions')
  expect(sent.headers.get('authorization')).toBe('Bearer sk-good-1')
  const body = JSON.parse(sent.body)
  expect(body.model).toBe('gpt-4o-2024-08-06')
  expect(body.max_completion_tokens).toBeLessThanOrEqual(16)
  const row = (await app.deps.repos.channels.findById(id))!
  expect(row.testTime).toBeGreaterThan(0)
  expect(row.responseTime).toBe(res.body.data.time_ms)
})

test('?model= overrides the test model; base URLs ending in /v1 are not doubled', async () => {
  const id = await make({ type: 8, key: 'k', base_url: `${upstream.url}/v1`, models: 'a,b' })
  upstream.seen.length = 0
  const res = await call(app, 'GET', `/api/channel/test/${id}?model=b`, undefined, admin)
  expect(res.body.success).toBe(true)
  expect(upstream.seen[0]!.path).toBe('/v1/chat/completions')
  expect(JSON.parse(upstream.seen[0]!.body)).toMatchObject({ model: 'b', max_tokens: 16 })
})

test('anthropic and gemini channels are tested with their own protocol and headers', async () => {
  const claude = await make({ type: 14, key: 'sk-ant-good', models: 'claude-x' })
  const gemini = await make({ type: 24, key: 'g-good', models: 'gemini-2.5-flash' })
  upstream.seen.length = 0
  expect((await call(app, 'GET', `/api/channel/test/${claude}`, undefined, admin)).body.success).toBe(true)
  expect((await call(app, 'GET', `/api/channel/test/${gemini}`, undefined, admin)).body.success).toBe(true)
  const [a, g] = upstream.seen
  expect(a!.path).toBe('/v1/messages')
  expect(a!.headers.get('x-api-key')).toBe('sk-ant-good')
  expect(a!.headers.get('anthropic-version')).toBe('2023-06-01')
  expect(JSON.parse(a!.body)).toMatchObject({ model: 'claude-x', max_tokens: 1 })
  expect(g!.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent')
  expect(g!.headers.get('x-goog-api-key')).toBe('g-good')
})

test('a failing test reports the upstream message; unreachable upstreams too; unknown id is 404', async () => {
  const id = await make({ type: 1, key: 'sk-bad', models: 'gpt-4o' })
  const res = await call(app, 'GET', `/api/channel/test/${id}`, undefined, admin)
  expect(res.status).toBe(200)
  expect(res.body.success).toBe(false)
  expect(res.body.message).toBe('Incorrect API key provided')
  expect(res.body.data.status_code).toBe(401)

  const dead = await make({ type: 1, key: 'k', base_url: 'http://127.0.0.1:1', models: 'gpt-4o' })
  const down = await call(app, 'GET', `/api/channel/test/${dead}`, undefined, admin)
  expect(down.body.success).toBe(false)
  expect(down.body.data.status_code).toBe(0)
  expect(down.body.message).not.toBe('')

  expect((await call(app, 'GET', '/api/channel/test/424242', undefined, admin)).status).toBe(404)

  const echo = await make({ type: 1, key: 'sk-echo-secret-123456', models: 'gpt-4o' })
  const echoed = await call(app, 'GET', `/api/channel/test/${echo}`, undefined, admin)
  expect(echoed.body.message).toContain('Incorrect API key provided')
  expect(JSON.stringify(echoed.body)).not.toContain('secret-123456')
})

test('fetch_models lists the upstream models through the provider list endpoint', async () => {
  const openai = await make({ type: 1, key: 'sk-good', models: 'x' })
  const res = await call(app, 'GET', `/api/channel/fetch_models/${openai}`, undefined, admin)
  expect(res.status).toBe(200)
  expect(res.body.data).toEqual(['gpt-4o', 'gpt-4o-mini'])

  const gemini = await make({ type: 24, key: 'g-good', models: 'x' })
  expect((await call(app, 'GET', `/api/channel/fetch_models/${gemini}`, undefined, admin)).body.data).toEqual(['gemini-2.5-flash', 'gemini-2.5-pro'])

  const bad = await make({ type: 1, key: 'sk-bad', models: 'x' })
  const failed = await call(app, 'GET', `/api/channel/fetch_models/${bad}`, undefined, admin)
  expect(failed.status).toBe(502)
  expect(failed.body.message).toContain('Incorrect API key provided')
  expect((await call(app, 'GET', '/api/channel/fetch_models/424242', undefined, admin)).status).toBe(404)
})
