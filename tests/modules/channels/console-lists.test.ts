import { afterAll, beforeAll, expect, test } from 'bun:test'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { fakeUpstream, userHeaders } from './helpers'

/** What the console's channel page needs: filters with totals, the tag list, and "test all channels". */
let app: TestApp
let admin: Record<string, string>
const upstream = fakeUpstream(async (req) => {
  const auth = req.headers.get('authorization') ?? ''
  if (auth.includes('slow')) await Bun.sleep(40)
  if (auth.includes('bad')) return Response.json({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }, { status: 401 })
  return Response.json({ id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'length' }] })
})
const ids: Record<string, number> = {}

beforeAll(async () => {
  app = await startTestApp()
  admin = await userHeaders(app)
  const post = async (body: Record<string, unknown>) => {
    const res = await call(app, 'POST', '/api/channel/', { base_url: upstream.url, ...body }, admin)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    ids[body.name as string] = res.body.data.id
  }
  await post({ type: 1, name: 'alpha', key: 'sk-good-a', models: 'gpt-4o, gpt_4o', tag: 'blue' })
  await post({ type: 1, name: 'beta', key: 'sk-slow-b', models: 'gpt-4o-mini', tag: 'blue' })
  await post({ type: 1, name: 'gamma', key: 'sk-bad-c', models: 'gpt-4o', tag: 'red', auto_ban: 0 })
  await post({ type: 1, name: 'delta', key: 'sk-good-d', models: 'gpt-4o', status: 2 })
  await post({ type: 14, name: 'epsilon', key: 'sk-good-e', models: 'claude-sonnet-4-5', status: 3 })
})
afterAll(async () => {
  await app.stop()
  upstream.stop()
})

const names = (data: { items: { name: string }[] }) => data.items.map((c) => c.name)
const list = async (qs: string, path = '/api/channel/') => {
  const res = await call(app, 'GET', `${path}?${qs}`, undefined, admin)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

test('model filter: exact names in the model list, paged with the total', async () => {
  const page = await list('model=gpt-4o&page_size=2')
  expect(page).toMatchObject({ total: 3, page: 1, page_size: 2 })
  expect(names(page)).toEqual(['delta', 'gamma'])
  expect(names(await list('model=gpt-4o&p=2&page_size=2'))).toEqual(['alpha'])
  // `_` is no wildcard, and a prefix is not a match
  expect(names(await list('model=gpt_4o'))).toEqual(['alpha'])
  expect((await list('model=gpt')).total).toBe(0)
  expect((await list('model=')).total).toBe(5) // empty: no filter
})

test('filters combine: model, tag, type, status (number or new-api’s words), keyword; on /search too', async () => {
  expect(names(await list('model=gpt-4o&tag=blue'))).toEqual(['alpha'])
  expect(names(await list('status=enabled'))).toEqual(['gamma', 'beta', 'alpha'])
  expect(names(await list('status=disabled'))).toEqual(['epsilon', 'delta'])
  expect((await list('status=all')).total).toBe(5)
  expect(names(await list('status=3'))).toEqual(['epsilon'])
  expect(names(await list('type=14&status=disabled'))).toEqual(['epsilon'])
  expect(names(await list('keyword=mm&model=gpt-4o', '/api/channel/search'))).toEqual(['gamma'])
  const bad = await call(app, 'GET', '/api/channel/?status=sleeping', undefined, admin)
  expect(bad.status).toBe(400)
  expect(bad.body.message).toContain('status')
})

test('GET /api/channel/tags: the distinct non-empty tags, sorted', async () => {
  const res = await call(app, 'GET', '/api/channel/tags', undefined, admin)
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ success: true, message: '', data: ['blue', 'red'] })
})

test('GET /api/channel/test: every enabled channel, in id order, with its verdict; the timings are recorded', async () => {
  upstream.seen.length = 0
  const res = await call(app, 'GET', '/api/channel/test', undefined, admin)
  expect(res.status).toBe(200)
  expect(res.body.success).toBe(true)
  expect(res.body.message).toBe('tested 3 channels, 1 failed')
  const lines = res.body.data as { id: number; name: string; success: boolean; time: number; time_ms: number; message: string }[]
  expect(lines.map((l) => [l.id, l.name, l.success])).toEqual([
    [ids.alpha!, 'alpha', true],
    [ids.beta!, 'beta', true],
    [ids.gamma!, 'gamma', false],
  ])
  expect(lines[2]!.message).toContain('Incorrect API key')
  expect(lines[1]!.time_ms).toBeGreaterThanOrEqual(40)
  expect(lines[1]!.time).toBe(lines[1]!.time_ms / 1000)
  expect(upstream.seen).toHaveLength(3) // the disabled ones were not tested
  for (const line of lines) {
    const row = (await app.deps.repos.channels.findById(line.id))!
    expect(row.responseTime).toBe(line.time_ms)
    expect(row.testTime).toBeGreaterThan(0)
    expect(row.status).toBe(1) // a failed test leaves the status alone
  }
  // the channel view shows them, for the console's latency column
  const view = (await call(app, 'GET', `/api/channel/${ids.beta}`, undefined, admin)).body.data
  expect(view).toMatchObject({ response_time: lines[1]!.time_ms, test_time: expect.any(Number) })
  expect((await app.deps.repos.channels.findById(ids.delta!))!.testTime).toBe(0)
})

test('no enabled channel: an empty list', async () => {
  const empty = await startTestApp()
  try {
    const res = await call(empty, 'GET', '/api/channel/test', undefined, await userHeaders(empty))
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([])
  } finally {
    await empty.stop()
  }
})

test('at most four channels are tested at once', async () => {
  const fresh = await startTestApp()
  let inFlight = 0
  let peak = 0
  const counting = fakeUpstream(async () => {
    peak = Math.max(peak, ++inFlight)
    await Bun.sleep(30)
    inFlight--
    return Response.json({ id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'h' }, finish_reason: 'length' }] })
  })
  try {
    const h = await userHeaders(fresh)
    for (let i = 0; i < 9; i++) await call(fresh, 'POST', '/api/channel/', { type: 1, name: `c${i}`, key: 'k', models: 'm', base_url: counting.url }, h)
    const res = await call(fresh, 'GET', '/api/channel/test', undefined, h)
    expect(res.body.data).toHaveLength(9)
    expect(res.body.data.every((l: { success: boolean }) => l.success)).toBe(true)
    expect(peak).toBe(4)
  } finally {
    await fresh.stop()
    counting.stop()
  }
})
