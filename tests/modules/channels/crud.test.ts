import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Role } from '../../../src/db/repos/user-roles'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { userHeaders } from './helpers'

let app: TestApp
let admin: Record<string, string>
beforeAll(async () => {
  app = await startTestApp()
  admin = await userHeaders(app)
})
afterAll(() => app.stop())

const abilityRows = async (id: number) =>
  (await app.deps.repos.channels
    .abilities(id))
    .map((a) => `${a.group}|${a.model}|${a.enabled ? 'on' : 'off'}|p${a.priority}|w${a.weight}|${a.tag}`)
    .sort()

async function create(body: Record<string, unknown>) {
  const res = await call(app, 'POST', '/api/channel/', body, admin)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

test('create, read, edit, delete a channel; abilities follow every write', async () => {
  const made = await create({ type: 1, name: 'main', key: 'sk-abcdefghijklmnop1234', models: 'gpt-4o, gpt-4o-mini,gpt-4o', group: 'default,vip', priority: 2, weight: 5, tag: 't1' })
  expect(made).toMatchObject({ type: 1, name: 'main', models: 'gpt-4o,gpt-4o-mini', group: 'default,vip', priority: 2, weight: 5, status: 1, key_count: 1 })
  expect(await abilityRows(made.id)).toEqual([
    'default|gpt-4o-mini|on|p2|w5|t1',
    'default|gpt-4o|on|p2|w5|t1',
    'vip|gpt-4o-mini|on|p2|w5|t1',
    'vip|gpt-4o|on|p2|w5|t1',
  ])

  const got = await call(app, 'GET', `/api/channel/${made.id}`, undefined, admin)
  expect(got.body.data).toEqual(made)

  const edited = await call(app, 'PUT', '/api/channel/', { id: made.id, models: ['o3'], group: 'vip', priority: 7, status: 2 }, admin)
  expect(edited.status).toBe(200)
  expect(edited.body.data).toMatchObject({ models: 'o3', group: 'vip', priority: 7, status: 2, key_count: 1 })
  expect(await abilityRows(made.id)).toEqual(['vip|o3|off|p7|w5|t1'])

  const enabled = await call(app, 'PUT', '/api/channel/', { id: made.id, status: 1 }, admin)
  expect(enabled.body.data.status).toBe(1)
  expect(await abilityRows(made.id)).toEqual(['vip|o3|on|p7|w5|t1'])

  const deleted = await call(app, 'DELETE', `/api/channel/${made.id}`, undefined, admin)
  expect(deleted.status).toBe(200)
  expect(await abilityRows(made.id)).toEqual([])
  expect((await call(app, 'GET', `/api/channel/${made.id}`, undefined, admin)).status).toBe(404)
  expect((await call(app, 'DELETE', `/api/channel/${made.id}`, undefined, admin)).status).toBe(404)
})

test('an edit without a key keeps the stored keys; a new key replaces them; append adds', async () => {
  const made = await create({ type: 1, name: 'keys', key: 'sk-first-key-000000001\nsk-first-key-000000002', models: 'm' })
  expect(made.key_count).toBe(2)
  for (const body of [{ id: made.id, name: 'renamed' }, { id: made.id, key: '' }, { id: made.id, key: '  \n ' }]) {
    const res = await call(app, 'PUT', '/api/channel/', body, admin)
    expect(res.body.data.key_count).toBe(2)
  }
  expect(app.deps.routing.channels.get(made.id)!.keys).toEqual(['sk-first-key-000000001', 'sk-first-key-000000002'])
  await call(app, 'PUT', '/api/channel/', { id: made.id, key: 'sk-new-key-0000000003' }, admin)
  expect(app.deps.routing.channels.get(made.id)!.keys).toEqual(['sk-new-key-0000000003'])
  const appended = await call(app, 'PUT', '/api/channel/', { id: made.id, key: 'sk-more-key-000000004', key_mode: 'append' }, admin)
  expect(appended.body.data.key_count).toBe(2)
  expect(app.deps.routing.channels.get(made.id)!.keys).toEqual(['sk-new-key-0000000003', 'sk-more-key-000000004'])
})

test('new-api wrapper: single and multi_to_single make one channel, batch one per key line', async () => {
  const single = await create({ mode: 'single', channel: { type: 14, name: 's', key: 'ka-0000000000000001\nka-0000000000000002', models: 'claude-haiku-4-5' } })
  expect(single.key_count).toBe(2)
  const multi = await create({ mode: 'multi_to_single', channel: { type: 14, name: 'm', key: 'kb-0000000000000001\nkb-0000000000000002' } })
  expect(multi.key_count).toBe(2)
  const batch = await create({ mode: 'batch', channel: { type: 14, name: 'b', key: 'kc-0000000000000001\n\nkc-0000000000000002\nkc-0000000000000003', models: 'x' } })
  expect(batch).toHaveLength(3)
  expect(batch.map((c: { key_count: number }) => c.key_count)).toEqual([1, 1, 1])
  expect(batch.map((c: { id: number }) => app.deps.routing.channels.get(c.id)!.keys[0])).toEqual(['kc-0000000000000001', 'kc-0000000000000002', 'kc-0000000000000003'])
  for (const c of batch) expect(await abilityRows(c.id)).toEqual(['default|x|on|p0|w1|'])
})

test('list: paging and filters by type, status, tag, group and keyword; search', async () => {
  const fresh = await startTestApp()
  const h = await userHeaders(fresh)
  try {
    const post = (body: object) => call(fresh, 'POST', '/api/channel/', body, h)
    await post({ type: 1, name: 'alpha', key: 'k1', models: 'a', group: 'default', tag: 'blue' })
    await post({ type: 14, name: 'beta', key: 'k2', models: 'b', group: 'vip,default', tag: 'blue', status: 2 })
    await post({ type: 24, name: 'gamma', key: 'k3', models: 'c', group: 'vip' })
    const list = async (qs: string) => (await call(fresh, 'GET', `/api/channel/?${qs}`, undefined, h)).body.data
    const page = await list('p=1&page_size=2')
    expect(page.total).toBe(3)
    expect(page.items.map((c: { name: string }) => c.name)).toEqual(['gamma', 'beta'])
    expect((await list('p=2&page_size=2')).items.map((c: { name: string }) => c.name)).toEqual(['alpha'])
    expect((await list('type=14')).items.map((c: { name: string }) => c.name)).toEqual(['beta'])
    expect((await list('status=1')).total).toBe(2)
    expect((await list('tag=blue')).total).toBe(2)
    expect((await list('group=vip')).items.map((c: { name: string }) => c.name)).toEqual(['gamma', 'beta'])
    expect((await list('keyword=alp')).items.map((c: { name: string }) => c.name)).toEqual(['alpha'])
    const search = await call(fresh, 'GET', '/api/channel/search?keyword=gam', undefined, h)
    expect(search.body.data.items.map((c: { name: string }) => c.name)).toEqual(['gamma'])
    expect((await call(fresh, 'GET', '/api/channel/?page_size=1000', undefined, h)).status).toBe(400)
  } finally {
    await fresh.stop()
  }
})

test('bad input is a 400 naming the field, never a 500', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ type: 999, name: 'x', key: 'k' }, /type 999/],
    [{ name: 'x', key: 'k' }, /type is required/],
    [{ type: 1, key: 'k' }, /name is required/],
    [{ type: 1, name: 'x', key: '' }, /key is required/],
    [{ type: 1, name: '   ', key: 'k' }, /name/],
    [{ type: 1, name: 'x', key: 'k', base_url: 'ftp://x' }, /base_url/],
    [{ type: 1, name: 'x', key: 'k', base_url: 'https://u:p@x.test' }, /base_url.*credentials/],
    [{ type: 1, name: 'x', key: 'k', base_url: 'https://x.test/v1?x=1' }, /base_url.*query/],
    [{ type: 3, name: 'x', key: 'k' }, /base_url is required/],
    [{ type: 8, name: 'x', key: 'k' }, /base_url is required/],
    [{ type: 1, name: 'x', key: 'k', model_mapping: '{bad json' }, /model_mapping is not valid JSON/],
    [{ type: 1, name: 'x', key: 'k', model_mapping: '[1]' }, /model_mapping must be a JSON object/],
    [{ type: 1, name: 'x', key: 'k', model_mapping: { a: 1 } }, /model_mapping.*"a".*string/],
    [{ type: 1, name: 'x', key: 'k', model_mapping: '{"a":"b","b":"a"}' }, /cycle: a → b → a/],
    [{ type: 1, name: 'x', key: 'k', model_mapping: { a: 'b', b: 'c', c: 'a' } }, /cycle/],
    [{ type: 1, name: 'x', key: 'k', setting: 'nope' }, /setting/],
    [{ type: 1, name: 'x', key: 'k', weight: -1 }, /weight/],
    [{ type: 1, name: 'x', key: 'k', status: 9 }, /status/],
    [{ mode: 'batch', channel: { type: 1, key: 'k' } }, /channel\.name/],
    [{ mode: 'weird', channel: { type: 1, name: 'x', key: 'k' } }, /mode/],
  ]
  for (const [body, message] of cases) {
    const res = await call(app, 'POST', '/api/channel/', body, admin)
    expect(res.status, JSON.stringify(body)).toBe(400)
    expect(res.body.success).toBe(false)
    expect(res.body.message, JSON.stringify(body)).toMatch(message)
  }
  expect((await call(app, 'PUT', '/api/channel/', { id: 987654, name: 'x' }, admin)).status).toBe(404)
  expect((await call(app, 'PUT', '/api/channel/', { name: 'x' }, admin)).body.message).toMatch(/id/)
  expect((await call(app, 'GET', '/api/channel/abc', undefined, admin)).body.message).toMatch(/"id"/)
  expect((await call(app, 'POST', '/api/channel/', '{not json', admin)).status).toBe(400)
  // identity mapping and chains are fine; Ollama needs no key
  expect((await call(app, 'POST', '/api/channel/', { type: 1, name: 'x', key: 'k', model_mapping: { a: 'a', b: 'c', c: 'd' } }, admin)).status).toBe(200)
  expect((await call(app, 'POST', '/api/channel/', { type: 4, name: 'local', key: '', models: 'llama3.2' }, admin)).status).toBe(200)
})

test('a base URL ending in /v1 is stored as given and not doubled upstream', async () => {
  const made = await create({ type: 8, name: 'compat', key: 'k', base_url: 'https://llm.example.com/v1/', models: 'compat-model' })
  expect(made.base_url).toBe('https://llm.example.com/v1')
  const [candidate] = await app.deps.routing.planRoute('default', 'compat-model')
  const { upstreamRequest } = await import('../../../src/providers/upstream')
  const target = upstreamRequest(candidate!.channel.provider, candidate!.channel.baseUrl, 'openai-chat', candidate!.upstreamModel, false, candidate!.key)
  expect(target.url).toBe('https://llm.example.com/v1/chat/completions')
})

test('GET /api/channel/models lists known models per channel type from provider data', async () => {
  const res = await call(app, 'GET', '/api/channel/models', undefined, admin)
  expect(res.status).toBe(200)
  const gemini = res.body.data.find((p: { type: number }) => p.type === 24)
  expect(gemini).toMatchObject({ name: 'Google Gemini', protocols: ['gemini'] })
  expect(gemini.models).toContain('gemini-2.5-flash')
  // every type offers suggestions, Custom (OpenAI-compatible) included
  const bare = res.body.data.filter((p: { models: string[] }) => p.models.length === 0).map((p: { name: string }) => p.name)
  expect(bare).toEqual([])
})

test('non-admins get 403 and anonymous callers 401 on every channel route', async () => {
  const user = await userHeaders(app, Role.user)
  const routes: [string, string, unknown?][] = [
    ['GET', '/api/channel/'],
    ['GET', '/api/channel/search?keyword=a'],
    ['GET', '/api/channel/models'],
    ['GET', '/api/channel/1'],
    ['POST', '/api/channel/', { type: 1, name: 'x', key: 'k' }],
    ['PUT', '/api/channel/', { id: 1, name: 'x' }],
    ['DELETE', '/api/channel/1'],
    ['POST', '/api/channel/batch', { ids: [1] }],
    ['POST', '/api/channel/batch/tag', { ids: [1], tag: 'x' }],
    ['POST', '/api/channel/tag/enabled', { tag: 'x' }],
    ['POST', '/api/channel/tag/disabled', { tag: 'x' }],
    ['PUT', '/api/channel/tag', { tag: 'x', priority: 1 }],
    ['GET', '/api/channel/test/1'],
    ['GET', '/api/channel/fetch_models/1'],
  ]
  for (const [method, path, body] of routes) {
    const forbidden = await call(app, method, path, body, user)
    expect(forbidden.status, `${method} ${path}`).toBe(403)
    expect(forbidden.body.success).toBe(false)
    expect((await call(app, method, path, body)).status, `${method} ${path}`).toBe(401)
  }
})
