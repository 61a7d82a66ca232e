import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startFakeJimeng } from '../helpers/fake-upstreams/jimeng'
import { startFakeVidu } from '../helpers/fake-upstreams/vidu'
import { startVideoEnv } from './video-env'

const AK = 'AKLTjimeng0123'
const SK = 'jimeng-secret-456789=='
const VIDU_KEY = 'vda_0123456789'
const QPU = 500_000
let e: Awaited<ReturnType<typeof startVideoEnv>>
let jimeng: Awaited<ReturnType<typeof startFakeJimeng>>
let vidu: Awaited<ReturnType<typeof startFakeVidu>>

beforeAll(async () => {
  e = await startVideoEnv()
  jimeng = await startFakeJimeng(AK, SK)
  vidu = await startFakeVidu(VIDU_KEY)
  await e.env.addChannel({ type: 51, baseUrl: jimeng.url, keyText: `${AK}|${SK}`, models: 'jimeng_vgfm_t2v_l20,jimeng_v30' })
  await e.env.addChannel({ type: 52, baseUrl: vidu.url, keyText: VIDU_KEY, models: 'viduq1' })
  await e.env.app.deps.options.set('ModelPrice', { jimeng_vgfm_t2v_l20: 0.3, jimeng_v30: 0.5, viduq1: 0.25 })
})
afterAll(async () => {
  await e.env.stop()
  jimeng.stop()
  vidu.stop()
})

const api = (path: string, body?: unknown) =>
  e.env.app.fetch(path, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${e.env.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })

test('Jimeng: every call signed with the Volcengine HMAC the fake checks, the req_key resolved for 3.0 with an image, polled to done, its bytes served', async () => {
  const before = await e.quotaOf()
  const outcomes = e.env.outcomes.length
  const video = (await (await api('/v1/videos', { model: 'jimeng_v30', prompt: 'a lantern', images: ['https://img.example/l.png'], seconds: 10 })).json()) as { id: string }
  await e.settled(outcomes + 1)
  expect(before - (await e.quotaOf())).toBe(0.5 * QPU)
  expect(jimeng.bodies.at(-1)).toMatchObject({ req_key: 'jimeng_i2v_first_v30', prompt: 'a lantern', frames: 241, image_urls: ['https://img.example/l.png'] })
  await e.pollRound()
  await e.pollRound()
  // the fetch named the same resolved req_key, signed too
  expect(jimeng.bodies.at(-1)).toMatchObject({ req_key: 'jimeng_i2v_first_v30' })
  expect(await (await api(`/v1/videos/${video.id}`)).json()).toMatchObject({ status: 'completed', model: 'jimeng_v30' })
  expect(new Uint8Array(await (await api(`/v1/videos/${video.id}/content`)).arrayBuffer())).toEqual(new Uint8Array([1, 2, 3, 4]))
  expect(jimeng.refusals).toEqual([])
})

test('Jimeng: a refused prompt costs nothing; a failed task is refunded', async () => {
  const before = await e.quotaOf()
  const refused = await api('/v1/videos', { model: 'jimeng_vgfm_t2v_l20', prompt: 'banned' })
  expect([refused.status, ((await refused.json()) as { error: { message: string } }).error.message]).toEqual([400, expect.stringContaining('code 50413')])
  const outcomes = e.env.outcomes.length
  const failing = (await (await api('/v1/videos', { model: 'jimeng_vgfm_t2v_l20', prompt: 'please fail' })).json()) as { id: string }
  await e.settled(outcomes + 1)
  expect(before - (await e.quotaOf())).toBe(0.3 * QPU)
  await e.pollRound()
  await e.pollRound()
  expect(await (await api(`/v1/videos/${failing.id}`)).json()).toMatchObject({ status: 'failed', error: { message: 'Internal Error' } })
  expect(await e.quotaOf()).toBe(before)
  expect(jimeng.refusals).toEqual([])
})

test('Vidu: first and last frames go to start-end2video with its Token key; polled to its creation; a slow one is still running after two polls', async () => {
  const outcomes = e.env.outcomes.length
  const frames = (await (await api('/v1/video/generations', { model: 'viduq1', prompt: 'a door opens', images: ['https://img.example/a.png', 'https://img.example/b.png'], duration: 4 })).json()) as { id: string }
  const slow = (await (await api('/v1/videos', { model: 'viduq1', prompt: 'slow clouds' })).json()) as { id: string }
  await e.settled(outcomes + 2)
  expect(vidu.bodies[0]).toMatchObject({ route: 'start-end2video', model: 'viduq1', duration: 4, resolution: '1080p', images: ['https://img.example/a.png', 'https://img.example/b.png'] })
  expect(vidu.bodies[1]).toMatchObject({ route: 'text2video', duration: 5 })
  await e.pollRound()
  await e.pollRound()
  expect(await (await api(`/v1/videos/${frames.id}`)).json()).toMatchObject({ status: 'completed' })
  expect(await (await api(`/v1/videos/${slow.id}`)).json()).toMatchObject({ status: 'in_progress' })
  expect(new Uint8Array(await (await api(`/v1/videos/${frames.id}/content`)).arrayBuffer())).toEqual(new Uint8Array([9, 8, 7]))
  expect((await e.row(frames.id)).action).toBe('firstTailGenerate')
})
