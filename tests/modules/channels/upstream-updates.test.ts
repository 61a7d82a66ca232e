import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Role } from '../../../src/db/repos/user-roles'
import { diffModels } from '../../../src/modules/channels/upstream-settings'
import { listModels } from '../../helpers/fake-upstreams/openai-chat'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { fakeUpstream, userHeaders } from './helpers'

/** new-api's /api/channel/upstream_updates/*: the upstream's /v1/models against the channel's models. */
let app: TestApp
let admin: Record<string, string>
let upstreamList = ['gpt-new', 'gpt-kept', 'real-target']
const upstream = fakeUpstream((req, url) => {
  if (req.headers.get('authorization') !== 'Bearer sk-right') return Response.json({ error: { message: 'bad key' } }, { status: 401 })
  if (url.pathname === '/v1/models') return listModels(upstreamList)
  return new Response('nothing here', { status: 404 })
})

beforeAll(async () => {
  app = await startTestApp()
  admin = await userHeaders(app)
})
afterAll(async () => {
  await app.stop()
  upstream.stop()
})

async function channel(body: Record<string, unknown> = {}): Promise<number> {
  const res = await call(app, 'POST', '/api/channel/', { name: 'up', type: 1, key: 'sk-right', base_url: upstream.url, models: 'gpt-kept,gpt-gone,alias', model_mapping: { alias: 'real-target' }, ...body }, admin)
  expect(res.status).toBe(200)
  return res.body.data.id
}
const storedModels = async (id: number) => (await app.deps.repos.channels.findById(id))!.models

test('diffModels: a mapping target counts as held, a mapping source is never removed', () => {
  expect(diffModels(['a', 'b', 'alias'], ['a', 'c', 't', 'c'], { alias: 't' })).toEqual({ add: ['c'], remove: ['b'] })
})

test('detect lists what the upstream added and dropped, through the channel\'s key; nothing is written', async () => {
  upstreamList = ['gpt-new', 'gpt-kept', 'real-target']
  const id = await channel()
  const res = await call(app, 'POST', '/api/channel/upstream_updates/detect', { id }, admin)
  expect(res.status).toBe(200)
  expect(res.body.data).toMatchObject({ channel_id: id, channel_name: 'up', add_models: ['gpt-new'], remove_models: ['gpt-gone'] })
  expect(typeof res.body.data.last_check_time).toBe('number')
  expect(upstream.seen.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' })
  expect(await storedModels(id)).toBe('gpt-kept,gpt-gone,alias')
})

test('apply adds and removes the chosen models as a channel edit, routes at once, with a manage log row', async () => {
  upstreamList = ['gpt-new', 'gpt-other', 'gpt-kept', 'real-target']
  const id = await channel()
  const res = await call(app, 'POST', '/api/channel/upstream_updates/apply', { id, add_models: ['gpt-new'], remove_models: ['gpt-gone'] }, admin)
  expect(res.status).toBe(200)
  expect(res.body.data).toEqual({ id, added_models: ['gpt-new'], removed_models: ['gpt-gone'], ignored_models: [], remaining_models: ['gpt-other'], remaining_remove_models: [], models: 'gpt-kept,alias,gpt-new' })
  expect(await storedModels(id)).toBe('gpt-kept,alias,gpt-new')
  expect(app.deps.routing.channels.get(id)!.models).toEqual(['gpt-kept', 'alias', 'gpt-new'])
  const logs = await call(app, 'GET', '/api/log/?type=3&page_size=100', undefined, admin)
  expect(logs.body.data.items.map((l: { content: string }) => l.content)).toContain('channel: POST /api/channel/upstream_updates/apply')
})

test('apply refuses an empty choice (400) and a model that is not a pending change (409), writing nothing', async () => {
  upstreamList = ['gpt-new', 'gpt-kept', 'real-target']
  const id = await channel()
  const empty = await call(app, 'POST', '/api/channel/upstream_updates/apply', { id, add_models: [] }, admin)
  expect([empty.status, empty.body.success, empty.body.data.code]).toEqual([400, false, 'nothing_to_apply'])
  const stale = await call(app, 'POST', '/api/channel/upstream_updates/apply', { id, add_models: ['gpt-new', 'never-listed'], remove_models: ['gpt-kept'] }, admin)
  expect(stale.status).toBe(409)
  expect(stale.body.data).toEqual({ code: 'not_pending', models: ['never-listed', 'gpt-kept'] })
  expect(await storedModels(id)).toBe('gpt-kept,gpt-gone,alias')
  expect((await call(app, 'POST', '/api/channel/upstream_updates/apply', { id: 999_999, add_models: ['x'] }, admin)).status).toBe(404)
  expect((await call(app, 'POST', '/api/channel/upstream_updates/detect', { id: 'x' }, admin)).status).toBe(400)
  expect((await call(app, 'POST', '/api/channel/upstream_updates/detect', {}, admin)).status).toBe(400)
})

test('a channel whose list cannot be fetched is named with the error: 502 alone, listed under failed in detect_all', async () => {
  upstreamList = ['gpt-new', 'gpt-kept', 'real-target']
  const broken = await channel({ name: 'broken', key: 'sk-wrong' })
  const res = await call(app, 'POST', '/api/channel/upstream_updates/detect', { id: broken }, admin)
  expect(res.status).toBe(502)
  expect(res.body.success).toBe(false)
  expect(res.body.message).toContain(`channel #${broken} (broken)`)
  expect(res.body.data).toMatchObject({ code: 'upstream_auth', channel_id: broken, channel_name: 'broken' })
  expect(res.body.message).not.toContain('sk-wrong')

  const all = await call(app, 'POST', '/api/channel/upstream_updates/detect_all', undefined, admin)
  expect(all.status).toBe(200)
  expect(all.body.data.failed).toContainEqual(expect.objectContaining({ channel_id: broken, channel_name: 'broken', code: 'upstream_auth' }))
  expect(all.body.data.items.length).toBe(all.body.data.count)
  expect(all.body.data.items.every((i: { add_models: string[] }) => i.add_models.includes('gpt-new'))).toBe(true)
  expect(all.body.data.items.some((i: { channel_id: number }) => i.channel_id === broken)).toBe(false)
})

test('a plain user and an anonymous caller are refused; nothing reaches the upstream', async () => {
  const id = await channel()
  const before = upstream.seen.length
  const user = await userHeaders(app, Role.user)
  expect((await call(app, 'POST', '/api/channel/upstream_updates/detect', { id }, user)).status).toBe(403)
  expect((await call(app, 'POST', '/api/channel/upstream_updates/apply', { id, add_models: ['gpt-new'] }, user)).status).toBe(403)
  expect((await call(app, 'POST', '/api/channel/upstream_updates/detect_all', undefined)).status).toBe(401)
  expect(upstream.seen.length).toBe(before)
})
