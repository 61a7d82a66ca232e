import { afterAll, beforeAll, expect, test } from 'bun:test'
import { as, login } from '../helpers/accounts'
import { SUNO_KEY, startTaskEnv } from './env'

let e: Awaited<ReturnType<typeof startTaskEnv>>
beforeAll(async () => {
  e = await startTaskEnv()
})
afterAll(async () => {
  await e.stop()
})

const suno = (path: string, body?: unknown, key = e.env.key) =>
  e.env.app.fetch(path, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })

test('music: charged suno_music at submit, polled to SUCCESS, fetched in new-api’s TaskDto with its clips', async () => {
  const before = await e.quotaOf()
  const outcomes = e.env.outcomes.length
  const submitted = (await (await suno('/suno/submit/music', { prompt: 'a song about foxes', mv: 'chirp-v3-5', tags: 'pop' })).json()) as { code: string; data: string }
  expect(submitted.code).toBe('success')
  await e.settled(outcomes + 1)
  expect(before - (await e.quotaOf())).toBe(0.1 * 500_000)
  const id = submitted.data
  await e.pollRound()
  await e.pollRound()
  const fetched = (await (await suno(`/suno/fetch/${id}`)).json()) as { code: string; data: Record<string, unknown> }
  expect(fetched).toMatchObject({ code: 'success', message: '', data: { task_id: id, action: 'MUSIC', status: 'SUCCESS', progress: '100%', fail_reason: '' } })
  expect(fetched.data.data).toEqual([{ id: `clip-${id}`, audio_url: `https://cdn.example/${id}.mp3` }])
  const many = (await (await suno('/suno/fetch', { ids: [id, 'other'] })).json()) as { data: { task_id: string }[] }
  expect(many.data.map((t) => t.task_id)).toEqual([id])
})

test('lyrics: suno_lyrics price; a failed one is refunded', async () => {
  const before = await e.quotaOf()
  const outcomes = e.env.outcomes.length
  const ok = (await (await suno('/suno/submit/lyrics', { prompt: 'rain' })).json()) as { data: string }
  const failing = (await (await suno('/suno/submit/lyrics', { prompt: 'please fail' })).json()) as { data: string }
  await e.settled(outcomes + 2)
  expect(before - (await e.quotaOf())).toBe(2 * 0.01 * 500_000)
  await e.pollRound()
  await e.pollRound()
  expect(((await (await suno(`/suno/fetch/${ok.data}`)).json()) as { data: { data: unknown } }).data.data).toEqual({ text: 'lyrics of rain', title: 'song' })
  expect(((await (await suno(`/suno/fetch/${failing.data}`)).json()) as { data: { status: string } }).data.status).toBe('FAILURE')
  expect(before - (await e.quotaOf())).toBe(0.01 * 500_000)
})

test('errors in new-api’s Suno shape', async () => {
  const action = await suno('/suno/submit/video', { prompt: 'x' })
  expect([action.status, ((await action.json()) as { code: string }).code]).toEqual([404, 'invalid_action'])
  const missing = await suno('/suno/fetch/nope')
  expect(await missing.json()).toMatchObject({ code: 'task_not_found', data: null })
  const refused = await suno('/suno/submit/music', { prompt: 'banned words' })
  expect(refused.status).toBe(400)
  expect(await refused.json()).toMatchObject({ code: 'upstream_error', message: 'the upstream refused the task: prompt refused', data: null })
  expect(SUNO_KEY).not.toBe(e.env.key)
})

test('the console lists: /api/task/self for the user, /api/task and /api/mj for admins, paged and filtered', async () => {
  const mj = await e.env.app.fetch('/mj/submit/imagine', { method: 'POST', headers: { 'mj-api-secret': e.env.key, 'content-type': 'application/json' }, body: '{"prompt":"listed"}' })
  const mjId = ((await mj.json()) as { result: string }).result
  const user = await login(e.env.app, 'alice')
  const root = await login(e.env.app)
  type Page = { success: boolean; data: { items: Record<string, unknown>[]; total: number; page: number; page_size: number } }
  const get = async (path: string, cookie: string) => (await (await e.env.app.fetch(path, { headers: as(cookie) })).json()) as Page
  const own = await get('/api/task/self?p=1&page_size=2', user)
  expect(own.data).toMatchObject({ total: 3, page: 1, page_size: 2 })
  expect(own.data.items[0]).toMatchObject({ platform: 'suno', channel_id: 0, user_id: e.env.user.id })
  expect((await get('/api/task/self?status=failure', user)).data.total).toBe(1)
  expect((await get('/api/mj/self?mj_id=' + mjId, user)).data.items).toEqual([expect.objectContaining({ mj_id: mjId, action: 'IMAGINE', prompt: 'listed', quota: 50_000 })])
  const all = await get(`/api/mj/?channel_id=${e.mjChannel}`, root)
  expect(all.data.items[0]).toMatchObject({ mj_id: mjId, channel_id: e.mjChannel })
  expect((await get('/api/task/?action=LYRICS', root)).data.total).toBe(2)
  const refused = await e.env.app.fetch('/api/task/', { headers: as(user) })
  expect(refused.status).toBe(403)
})
