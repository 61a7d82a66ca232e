import { afterAll, beforeAll, expect, test } from 'bun:test'
import { KLING_VIDEO, startFakeKling } from '../helpers/fake-upstreams/kling'
import { startVideoEnv } from './video-env'

const AK = 'kling-access-key-0123'
const SK = 'kling-secret-key-456789'
const QPU = 500_000
let e: Awaited<ReturnType<typeof startVideoEnv>>
let kling: Awaited<ReturnType<typeof startFakeKling>>

beforeAll(async () => {
  e = await startVideoEnv()
  kling = await startFakeKling(AK, SK, () => e.env.app.deps.clock.now())
  await e.env.addChannel({ type: 50, baseUrl: kling.url, keyText: `${AK}|${SK}`, models: 'kling-v1,kling-v2-master' })
  await e.env.app.deps.options.set('ModelPrice', { 'kling-v1': 0.2, 'kling-v2-master': 1 })
})
afterAll(async () => {
  await e.env.stop()
  kling.stop()
})

const api = (path: string, body?: unknown) =>
  e.env.app.fetch(path, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${e.env.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })

test("Kling's own route: its body passed on, signed with a JWT from access key and secret key, charged ModelPrice per task, polled to its CDN URL", async () => {
  const before = await e.quotaOf()
  const outcomes = e.env.outcomes.length
  const res = await api('/kling/v1/videos/image2video', { model_name: 'kling-v2-master', prompt: 'a cat jumps', image: 'https://img.example/cat.png', negative_prompt: 'blur', cfg_scale: 0.7, duration: '10' })
  const video = (await res.json()) as { id: string; status: string; model: string }
  expect([res.status, video.status, video.model]).toEqual([200, 'queued', 'kling-v2-master'])
  await e.settled(outcomes + 1)
  expect(before - (await e.quotaOf())).toBe(1 * QPU)
  expect(kling.bodies.at(-1)).toMatchObject({ route: 'image2video', model_name: 'kling-v2-master', prompt: 'a cat jumps', image: 'https://img.example/cat.png', negative_prompt: 'blur', cfg_scale: 0.7, duration: '10' })
  expect(kling.refusals).toEqual([])

  await e.pollRound()
  const running = (await (await api(`/kling/v1/videos/image2video/${video.id}`)).json()) as { code: string; data: Record<string, unknown> }
  expect(running).toMatchObject({ code: 'success', data: { task_id: video.id, status: 'IN_PROGRESS', action: 'generate' } })
  await e.pollRound()
  const done = (await (await api(`/v1/videos/${video.id}`)).json()) as Record<string, unknown>
  expect(done).toMatchObject({ status: 'completed', progress: 100, seconds: '5.1' })
  expect((done.metadata as { url: string }).url).toEndWith('.mp4')
  const content = await api(`/v1/videos/${video.id}/content`)
  expect(content.status).toBe(200)
  expect(new Uint8Array(await content.arrayBuffer())).toEqual(KLING_VIDEO)
  expect(kling.refusals).toEqual([])
})

test('the /v1/videos shape reaches Kling too (text to video); a refused prompt is a 400 in new-api’s task shape on its route, charged nothing', async () => {
  const outcomes = e.env.outcomes.length
  const res = await api('/v1/videos', { model: 'kling-v1', prompt: 'sunrise', seconds: 5, size: '720x1280' })
  expect(res.status).toBe(200)
  await e.settled(outcomes + 1)
  expect(kling.bodies.at(-1)).toMatchObject({ route: 'text2video', model_name: 'kling-v1', duration: '5', aspect_ratio: '9:16', mode: 'std' })
  const before = await e.quotaOf()
  const refused = await api('/kling/v1/videos/text2video', { model_name: 'kling-v1', prompt: 'banned scene' })
  expect(refused.status).toBe(400)
  expect(await refused.json()).toMatchObject({ code: 'upstream_error', message: expect.stringContaining('code 1301'), data: null })
  const missing = await api('/kling/v1/videos/text2video/task_nope')
  expect([missing.status, ((await missing.json()) as { code: string }).code]).toEqual([404, 'task_not_found'])
  expect(await e.quotaOf()).toBe(before)
})

test('a Kling failure is refunded, with its reason', async () => {
  const before = await e.quotaOf()
  const outcomes = e.env.outcomes.length
  const video = (await (await api('/kling/v1/videos/text2video', { model_name: 'kling-v1', prompt: 'please fail' })).json()) as { id: string }
  await e.settled(outcomes + 1)
  expect(before - (await e.quotaOf())).toBe(0.2 * QPU)
  await e.pollRound()
  await e.pollRound()
  expect(await (await api(`/v1/videos/${video.id}`)).json()).toMatchObject({ status: 'failed', error: { message: 'Failure to pass the risk control system' } })
  expect(await e.quotaOf()).toBe(before)
})
