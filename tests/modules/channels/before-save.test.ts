import { afterAll, beforeAll, expect, test } from 'bun:test'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { fakeUpstream, userHeaders } from './helpers'

let app: TestApp
let admin: Record<string, string>
const upstream = fakeUpstream((req, url) => {
  const auth = req.headers.get('authorization') ?? ''
  if (auth !== 'Bearer sk-right') return Response.json({ error: { message: 'Incorrect API key provided' } }, { status: 401 })
  if (url.pathname === '/v1/models') return Response.json({ object: 'list', data: [{ id: 'chat-1' }, { id: 'embed-1' }] })
  if (url.pathname === '/v1/chat/completions') return Response.json({ id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }] })
  return new Response('nothing here', { status: 404 })
})
/** a port nothing listens on: a server started and stopped */
const closedPort = (() => {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
  const port = server.port
  server.stop(true)
  return port
})()

beforeAll(async () => {
  app = await startTestApp()
  admin = await userHeaders(app)
})
afterAll(async () => {
  await app.stop()
  upstream.stop()
})

test('POST /api/channel/fetch_models lists the upstream\'s models from the typed type, key and base URL, before any channel exists', async () => {
  const res = await call(app, 'POST', '/api/channel/fetch_models', { type: 1, key: 'sk-right\nsk-second', base_url: upstream.url }, admin)
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ success: true, message: '', data: ['chat-1', 'embed-1'] })
  expect(upstream.seen.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' })
  expect(await app.deps.repos.channels.all()).toEqual([])
})

test('fetch_models failures carry a code, the request and the status, never the runtime\'s phrasing', async () => {
  const wrongKey = await call(app, 'POST', '/api/channel/fetch_models', { type: 1, key: 'sk-wrong', base_url: upstream.url }, admin)
  expect(wrongKey.status).toBe(502)
  expect(wrongKey.body.data).toEqual({ code: 'upstream_auth', status: 401, method: 'GET', url: `${upstream.url}/v1/models`, host: new URL(upstream.url).host })
  expect(wrongKey.body.message).toContain(`GET ${upstream.url}/v1/models (upstream 401)`)
  expect(wrongKey.body.message).not.toContain('sk-wrong')

  const wrongPath = await call(app, 'POST', '/api/channel/fetch_models', { type: 1, key: 'sk-right', base_url: `${upstream.url}/nested` }, admin)
  expect(wrongPath.body.data).toMatchObject({ code: 'upstream_not_found', status: 404, url: `${upstream.url}/nested/v1/models` })

  const down = await call(app, 'POST', '/api/channel/fetch_models', { type: 1, key: 'sk-right', base_url: `http://127.0.0.1:${closedPort}` }, admin)
  expect(down.status).toBe(502)
  expect(down.body.data).toMatchObject({ code: 'upstream_unreachable', status: 0, host: `127.0.0.1:${closedPort}` })
  expect(down.body.message).toContain(`cannot connect to 127.0.0.1:${closedPort} (ECONNREFUSED)`)
  expect(down.body.message).not.toContain('Is the computer able')
})

test('fetch_models checks what a save checks: the type, the key and the private-network rule', async () => {
  expect((await call(app, 'POST', '/api/channel/fetch_models', { type: 1, base_url: upstream.url }, admin)).body).toMatchObject({ success: false, data: { code: 'invalid_request', param: 'key' } })
  expect((await call(app, 'POST', '/api/channel/fetch_models', { type: 99999, key: 'k' }, admin)).status).toBe(400)
  await app.deps.options.set('ChannelPrivateNetworksAllowed', false)
  try {
    const refused = await call(app, 'POST', '/api/channel/fetch_models', { type: 1, key: 'sk-right', base_url: upstream.url }, admin)
    expect(refused.status).toBe(400)
    expect(refused.body.message).toContain('base_url refused')
  } finally {
    await app.deps.options.set('ChannelPrivateNetworksAllowed', true)
  }
  const before = upstream.seen.length
  expect((await call(app, 'POST', '/api/channel/fetch_models', { type: 1, key: 'sk-right', base_url: 'http://169.254.169.254' }, admin)).status).toBe(400)
  expect(upstream.seen.length).toBe(before)
})

test('an edited channel\'s stored keys serve fetch_models when none is typed', async () => {
  const created = await call(app, 'POST', '/api/channel/', { type: 1, name: 'stored', key: 'sk-right', base_url: upstream.url, models: 'x' }, admin)
  const res = await call(app, 'POST', '/api/channel/fetch_models', { type: 1, base_url: upstream.url, id: created.body.data.id }, admin)
  expect(res.body.data).toEqual(['chat-1', 'embed-1'])
})

test('a failed test is kept on the row (code, method, URL, status); a passing one clears it', async () => {
  const created = await call(app, 'POST', '/api/channel/', { type: 1, name: 'tested', key: 'sk-wrong', base_url: upstream.url, models: 'chat-1' }, admin)
  const id = created.body.data.id
  const failed = await call(app, 'GET', `/api/channel/test/${id}`, undefined, admin)
  expect(failed.body).toMatchObject({ success: false, data: { code: 'upstream_auth', status_code: 401, method: 'POST', url: `${upstream.url}/v1/chat/completions` } })
  const row = (await call(app, 'GET', `/api/channel/${id}`, undefined, admin)).body.data
  expect(row.test_time).toBeGreaterThan(0)
  expect(row.test_error).toEqual({ code: 'upstream_auth', status: 401, method: 'POST', url: `${upstream.url}/v1/chat/completions`, message: expect.stringContaining('Incorrect API key') })

  await call(app, 'PUT', '/api/channel/', { id, key: 'sk-right' }, admin)
  expect((await call(app, 'GET', `/api/channel/test/${id}`, undefined, admin)).body.success).toBe(true)
  expect((await call(app, 'GET', `/api/channel/${id}`, undefined, admin)).body.data.test_error).toBeNull()

  await call(app, 'PUT', '/api/channel/', { id, base_url: `http://127.0.0.1:${closedPort}`, key: 'sk-right' }, admin)
  const down = await call(app, 'GET', `/api/channel/test/${id}`, undefined, admin)
  expect(down.body).toMatchObject({ success: false, data: { code: 'upstream_unreachable', status_code: 0 } })
  expect(down.body.message).not.toContain('Is the computer able')
})

test('POST /api/channel/copy/:id (new-api\'s path) copies the channel with its keys under a new name', async () => {
  const created = await call(app, 'POST', '/api/channel/', { type: 1, name: 'orig', key: 'sk-right', base_url: upstream.url, models: 'chat-1', group: 'default,vip' }, admin)
  const id = created.body.data.id
  await call(app, 'GET', `/api/channel/test/${id}`, undefined, admin)
  const copy = await call(app, 'POST', `/api/channel/copy/${id}?suffix=%20copy`, undefined, admin)
  expect(copy.status).toBe(200)
  const view = (await call(app, 'GET', `/api/channel/${copy.body.data.id}`, undefined, admin)).body.data
  expect(view).toMatchObject({ name: 'orig copy', models: 'chat-1', group: 'default,vip', base_url: upstream.url, key_mask: created.body.data.key_mask, test_time: 0, response_time: 0 })
  expect((await call(app, 'GET', `/api/channel/test/${copy.body.data.id}`, undefined, admin)).body.success).toBe(true)
  expect((await call(app, 'POST', '/api/channel/copy/999999', undefined, admin)).status).toBe(404)
  expect((await call(app, 'POST', `/api/channel/copy/${id}`, undefined, admin)).body.data.id).toBeGreaterThan(copy.body.data.id)
})
