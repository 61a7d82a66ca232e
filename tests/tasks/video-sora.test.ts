import { afterAll, beforeAll, expect, test } from 'bun:test'
import OpenAI, { toFile } from 'openai'
import { startFakeSora, SORA_VIDEO } from '../helpers/fake-upstreams/sora'
import { addUser, as, login } from '../helpers/accounts'
import { startVideoEnv } from './video-env'

const SORA_KEY = 'sk-sora-upstream-0123456789'
const QPU = 500_000
let e: Awaited<ReturnType<typeof startVideoEnv>>
let sora: Awaited<ReturnType<typeof startFakeSora>>
let client: OpenAI
let channel: number

beforeAll(async () => {
  e = await startVideoEnv()
  sora = await startFakeSora(SORA_KEY)
  channel = await e.env.addChannel({ type: 55, baseUrl: sora.url, keyText: SORA_KEY, models: 'sora-2,sora-2-pro' })
  client = new OpenAI({ apiKey: e.env.key, baseURL: `${e.env.app.url}/v1`, maxRetries: 0 })
})
afterAll(async () => {
  await e.env.stop()
  sora.stop()
})

const api = (path: string, init: RequestInit = {}, key = e.env.key) => e.env.app.fetch(path, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } })

test("the official SDK's videos client: create (multipart, a reference image), retrieve while it runs, download the bytes; charged ModelPrice × seconds at submit", async () => {
  const before = await e.quotaOf()
  const outcomes = e.env.outcomes.length
  const image = await toFile(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), 'first-frame.png', { type: 'image/png' })
  const video = await client.videos.create({ model: 'sora-2', prompt: 'a fox in the snow', seconds: '8', size: '1280x720', input_reference: image })
  expect(video).toMatchObject({ object: 'video', model: 'sora-2', status: 'queued', progress: 0, seconds: '8', size: '1280x720' })
  expect(video.id).toMatch(/^task_[A-Za-z0-9]{32}$/)
  await e.settled(outcomes + 1)
  // sora-2 at $0.10 a second, 8 seconds, a 720p size (ratio 1)
  expect(before - (await e.quotaOf())).toBe(Math.round(0.1 * 8 * QPU))
  const sent = sora.submits.at(-1)!
  expect(sent.contentType).toStartWith('multipart/form-data')
  expect(sent.fields).toEqual({ model: 'sora-2', prompt: 'a fox in the snow', seconds: '8', size: '1280x720' })
  expect(sent.file).toEqual({ name: 'first-frame.png', type: 'image/png', bytes: 7 })
  const row = await e.row(video.id)
  expect(row).toMatchObject({ platform: 'sora', channelId: channel, quota: Math.round(0.1 * 8 * QPU), action: 'generate' })
  expect(row.upstreamTaskId).toStartWith('video_')

  await e.pollRound()
  expect(await client.videos.retrieve(video.id)).toMatchObject({ id: video.id, status: 'in_progress', progress: 50 })
  const early = await api(`/v1/videos/${video.id}/content`)
  expect([early.status, ((await early.json()) as { error: { code: string } }).error.code]).toEqual([400, 'video_not_ready'])
  await e.pollRound()
  const done = await client.videos.retrieve(video.id)
  expect(done).toMatchObject({ status: 'completed', progress: 100, error: null, seconds: '8' })
  // the upstream's own id is never shown
  expect(JSON.stringify(done)).not.toContain(row.upstreamTaskId)

  const content = await client.videos.downloadContent(video.id)
  expect(content.headers.get('content-type')).toBe('video/mp4')
  expect(new Uint8Array(await content.arrayBuffer())).toEqual(SORA_VIDEO)
  const part = await api(`/v1/videos/${video.id}/content`, { headers: { range: 'bytes=100-199' } })
  expect([part.status, part.headers.get('content-range')]).toEqual([206, `bytes 100-199/${SORA_VIDEO.length}`])
  expect(new Uint8Array(await part.arrayBuffer())).toEqual(SORA_VIDEO.slice(100, 200))
})

test('sora-2-pro at 1792x1024 costs the size ratio (1.666667) per second too; a remix is charged at its video’s length and size, on its channel', async () => {
  const before = await e.quotaOf()
  const outcomes = e.env.outcomes.length
  const video = await client.videos.create({ model: 'sora-2-pro', prompt: 'city at night', seconds: '4', size: '1792x1024' })
  const remix = await client.videos.remix(video.id, { prompt: 'city at dawn' })
  await e.settled(outcomes + 2)
  const one = Math.round(0.3 * 4 * 1.666667 * QPU)
  expect(before - (await e.quotaOf())).toBe(2 * one)
  expect(remix).toMatchObject({ model: 'sora-2-pro', status: 'queued', remixed_from_video_id: video.id })
  const origin = await e.row(video.id)
  expect(await e.row(remix.id)).toMatchObject({ action: 'remix', channelId: channel, quota: one })
  // the upstream remixed its own video, by its own id
  const upstreamRemix = sora.store.tasks.get((await e.row(remix.id)).upstreamTaskId)!
  expect(upstreamRemix.action).toBe('remix')
  expect(origin.upstreamTaskId).toStartWith('video_')
})

test('a failed render and a lost task are refunded once, with a system log row naming the task', async () => {
  await e.env.app.deps.options.set('TaskLostPolls', 2)
  const before = await e.quotaOf()
  const outcomes = e.env.outcomes.length
  const failing = await client.videos.create({ model: 'sora-2', prompt: 'please fail' })
  const lost = await client.videos.create({ model: 'sora-2', prompt: 'lost somewhere' })
  await e.settled(outcomes + 2)
  expect(before - (await e.quotaOf())).toBe(2 * Math.round(0.1 * 4 * QPU))
  await e.pollRound()
  await e.pollRound()
  await e.pollRound()
  expect(await client.videos.retrieve(failing.id)).toMatchObject({ status: 'failed', error: { message: 'the render failed' } })
  expect(await client.videos.retrieve(lost.id)).toMatchObject({ status: 'failed', error: { message: 'lost: the upstream no longer knows the task' } })
  expect(await e.quotaOf()).toBe(before)
  const rows = await e.refundRows()
  for (const id of [failing.id, lost.id]) expect(rows.filter((r) => r.content.includes(id) && r.quota === Math.round(0.1 * 4 * QPU))).toHaveLength(1)
  await e.pollRound()
  expect(await e.quotaOf()).toBe(before)
})

test('refusals: a banned prompt (400 from the vendor), a length past VideoMaxSeconds, a missing prompt, a video of another user; nothing charged', async () => {
  const before = await e.quotaOf()
  const banned = await api('/v1/videos', { method: 'POST', body: JSON.stringify({ model: 'sora-2', prompt: 'banned words' }) })
  expect(banned.status).toBe(400)
  expect(((await banned.json()) as { error: { message: string } }).error.message).toContain('moderation')
  const long = await api('/v1/videos', { method: 'POST', body: JSON.stringify({ model: 'sora-2', prompt: 'x', seconds: '9999' }) })
  expect([long.status, ((await long.json()) as { error: { param: string } }).error.param]).toEqual([400, 'seconds'])
  const empty = await api('/v1/videos', { method: 'POST', body: JSON.stringify({ model: 'sora-2' }) })
  expect(empty.status).toBe(400)
  const unknown = await api('/v1/videos', { method: 'POST', body: JSON.stringify({ model: 'kling-v1', prompt: 'x' }) })
  expect(unknown.status).toBe(404)
  expect(await e.quotaOf()).toBe(before)

  const mine = await client.videos.create({ model: 'sora-2', prompt: 'mine' })
  const bob = await addUser(e.env.app, { username: 'bob-video', quota: 1_000_000 })
  const bobKey = await e.env.newKey({}, bob)
  for (const path of [`/v1/videos/${mine.id}`, `/v1/videos/${mine.id}/content`]) expect((await api(path, {}, bobKey)).status).toBe(404)
  expect((await api(`/v1/videos/${mine.id}/remix`, { method: 'POST', body: '{"prompt":"steal"}' }, bobKey)).status).toBe(404)
})

test("new-api's /v1/video/generations takes its JSON (duration, images) and answers its fetch as {code, data}", async () => {
  const outcomes = e.env.outcomes.length
  const res = await api('/v1/video/generations', { method: 'POST', body: JSON.stringify({ model: 'sora-2', prompt: 'waves', duration: 12, images: ['https://img.example/a.png'] }) })
  const video = (await res.json()) as { id: string; seconds: string }
  expect([res.status, video.seconds]).toEqual([200, '12'])
  await e.settled(outcomes + 1)
  expect(JSON.parse(sora.submits.at(-1)!.fields.input_reference!)).toEqual({ image_url: 'https://img.example/a.png' })
  await e.pollRound()
  await e.pollRound()
  const fetched = (await (await api(`/v1/video/generations/${video.id}`)).json()) as { code: string; data: Record<string, unknown> }
  expect(fetched).toMatchObject({ code: 'success', data: { task_id: video.id, status: 'SUCCESS', progress: '100%' } })
})

test("the console: /api/task/self lists a finished video with its preview link, which streams the bytes to the signed-in owner only", async () => {
  const video = await client.videos.create({ model: 'sora-2', prompt: 'console preview' })
  await e.pollRound()
  await e.pollRound()
  const alice = await login(e.env.app, 'alice')
  const page = (await (await e.env.app.fetch(`/api/task/self?task_id=${video.id}`, { headers: as(alice) })).json()) as { data: { items: Record<string, unknown>[] } }
  expect(page.data.items[0]).toMatchObject({ task_id: video.id, platform: 'sora', status: 'SUCCESS', content_url: `/api/task/self/${video.id}/content` })
  const bytes = await e.env.app.fetch(`/api/task/self/${video.id}/content`, { headers: as(alice) })
  expect(bytes.status).toBe(200)
  expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(SORA_VIDEO)
  const root = await login(e.env.app)
  const all = (await (await e.env.app.fetch(`/api/task/?task_id=${video.id}`, { headers: as(root) })).json()) as { data: { items: Record<string, unknown>[] } }
  expect(all.data.items[0]!.content_url).toBe(`/api/task/${video.id}/content`)
  expect((await e.env.app.fetch(`/api/task/${video.id}/content`, { headers: as(root) })).status).toBe(200)
  expect((await e.env.app.fetch(`/api/task/self/${video.id}/content`, { headers: as(root) })).status).toBe(404)
  expect((await e.env.app.fetch(`/api/task/self/${video.id}/content`)).status).toBe(401)
})
