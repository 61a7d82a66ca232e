import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { addUser } from '../helpers/accounts'
import { startTaskEnv } from './env'

let e: Awaited<ReturnType<typeof startTaskEnv>>
const IMAGINE_PRICE = 0.1 * 500_000 // new-api's default ModelPrice for mj_imagine, in quota
const UPSCALE_PRICE = 0.05 * 500_000

beforeAll(async () => {
  e = await startTaskEnv()
})
afterAll(async () => {
  await e.stop()
})

const mj = (path: string, body?: unknown, key = e.env.key, header = 'mj-api-secret') =>
  e.env.app.fetch(path, { method: body === undefined ? 'GET' : 'POST', headers: { [header]: header === 'authorization' ? `Bearer ${key}` : key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })

async function imagine(prompt: string, path = '/mj/submit/imagine'): Promise<string> {
  const response = await mj(path, { prompt })
  const body = (await response.json()) as { code: number; result: string }
  expect([response.status, body.code]).toEqual([200, 1])
  return body.result
}

const fetchTask = async (id: string) => (await (await mj(`/mj/task/${id}/fetch`)).json()) as Record<string, unknown>

describe('Midjourney through a midjourney-proxy channel', () => {
  test('imagine: sent with the channel secret, charged mj_imagine at submit, polled to SUCCESS with the shape clients read', async () => {
    const before = await e.quotaOf()
    const outcomes = e.env.outcomes.length
    const id = await imagine('a red fox')
    await e.settled(outcomes + 1)
    expect(before - (await e.quotaOf())).toBe(IMAGINE_PRICE)
    expect(e.mj.submits.at(-1)).toEqual({ path: '/mj/submit/imagine', body: { prompt: 'a red fox' } })
    expect(await fetchTask(id)).toMatchObject({ id, action: 'IMAGINE', status: 'SUBMITTED', prompt: 'a red fox', imageUrl: '' })

    await e.pollRound()
    expect(await fetchTask(id)).toMatchObject({ status: 'IN_PROGRESS', progress: '50%' })
    await e.pollRound()
    const done = await fetchTask(id)
    expect(done).toMatchObject({ id, status: 'SUCCESS', progress: '100%', imageUrl: `https://cdn.example/${id}.png`, failReason: '', promptEn: 'a red fox' })
    expect(done.buttons).toEqual([{ customId: `MJ::JOB::upsample::1::${id}`, emoji: '', label: 'U1', type: 2, style: 2 }])
    // an ended task is not polled again
    const polls = e.mj.store.pollsOf(id)
    await e.pollRound()
    expect(e.mj.store.pollsOf(id)).toBe(polls)
    expect(before - (await e.quotaOf())).toBe(IMAGINE_PRICE)
  })

  test('action: a button of a finished task runs on its channel, priced by its action (mj_upscale)', async () => {
    const id = await imagine('a blue whale')
    await e.pollRound()
    await e.pollRound()
    const before = await e.quotaOf()
    const outcomes = e.env.outcomes.length
    const response = await mj('/mj/submit/action', { taskId: id, customId: `MJ::JOB::upsample::1::${id}` })
    const body = (await response.json()) as { code: number; result: string }
    expect(body.code).toBe(1)
    await e.settled(outcomes + 1)
    expect(before - (await e.quotaOf())).toBe(UPSCALE_PRICE)
    expect(await fetchTask(body.result)).toMatchObject({ action: 'UPSCALE', status: 'SUBMITTED' })
    expect(e.env.outcomes.at(-1)!.model).toBe('mj_upscale')
  })

  test('a task that fails at the upstream is refunded once, with a log row saying so', async () => {
    const before = await e.quotaOf()
    const id = await imagine('please fail')
    await e.pollRound()
    await e.pollRound()
    expect(await fetchTask(id)).toMatchObject({ status: 'FAILURE', failReason: 'job failed at Midjourney' })
    expect(await e.quotaOf()).toBe(before)
    await e.pollRound() // ended: never refunded twice
    expect(await e.quotaOf()).toBe(before)
    const rows = (await e.refundRows()).filter((row) => row.content.includes(id))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ userId: e.env.user.id, quota: IMAGINE_PRICE, modelName: 'mj_imagine' })
    expect(JSON.parse(rows[0]!.other)).toMatchObject({ task_id: id, refund: IMAGINE_PRICE })
  })

  test('a task the upstream lost fails after TaskLostPolls polls, refunded', async () => {
    await e.env.app.deps.options.set('TaskLostPolls', 2)
    const before = await e.quotaOf()
    const id = await imagine('lost in the mail')
    await e.pollRound()
    expect(await fetchTask(id)).toMatchObject({ status: 'SUBMITTED' })
    await e.pollRound()
    expect(await fetchTask(id)).toMatchObject({ status: 'FAILURE', failReason: 'lost: the upstream no longer knows the task' })
    expect(await e.quotaOf()).toBe(before)
  })

  test('a task still running past TaskTimeoutMinutes fails, refunded', async () => {
    const before = await e.quotaOf()
    const id = await imagine('slow and steady')
    await e.pollRound()
    e.advance(24 * 60 * 60_000)
    await e.pollRound()
    expect(await fetchTask(id)).toMatchObject({ status: 'FAILURE', failReason: 'timed out (TaskTimeoutMinutes)' })
    expect(await e.quotaOf()).toBe(before)
  })

  test('a prompt the upstream refuses is a 400 naming its reason and code, charged nothing; no task is kept', async () => {
    const before = await e.quotaOf()
    const outcomes = e.env.outcomes.length
    const response = await mj('/mj/submit/imagine', { prompt: 'something banned' })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ code: 4, description: 'the upstream refused the task: banned prompt detected (code 24)', type: 'upstream_error', result: null })
    await e.settled(outcomes + 1)
    expect(await e.quotaOf()).toBe(before)
    expect(e.env.outcomes.at(-1)).toMatchObject({ ok: false })
    // the caller's fault: the channel's health is not touched
    expect(await e.env.app.deps.coord.channelFailures(e.mjChannel)).toBe(0)
  })

  test('modes, Bearer keys, list-by-condition, image-seed and upload', async () => {
    const id = await imagine('fast fox', '/mj-fast/mj/submit/imagine')
    expect(e.mj.submits.at(-1)!.path).toBe('/mj-fast/mj/submit/imagine')
    const bearer = await mj(`/mj/task/${id}/fetch`, undefined, e.env.key, 'authorization')
    expect(((await bearer.json()) as { id: string }).id).toBe(id)
    const listed = (await (await mj('/mj/task/list-by-condition', { ids: [id, 'nope'] })).json()) as { id: string }[]
    expect(listed.map((t) => t.id)).toEqual([id])
    expect(await (await mj(`/mj/task/${id}/image-seed`)).json()).toEqual({ code: 1, description: 'success', result: `seed-${id}` })
    const upload = await mj('/mj/submit/upload-discord-images', { base64Array: ['data:image/png;base64,AAAA'] })
    expect(await upload.json()).toEqual({ code: 1, description: 'success', result: ['https://cdn.example/upload-1.png'] })
  })

  test('errors in the Midjourney shape: no key, unknown mode, unknown task, bad body, a task of another user', async () => {
    const none = await e.env.app.fetch('/mj/submit/imagine', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"x"}' })
    expect(none.status).toBe(401)
    expect(await none.json()).toMatchObject({ code: 4, result: null })
    const mode = await mj('/mj-warp/mj/submit/imagine', { prompt: 'x' })
    expect([mode.status, ((await mode.json()) as { code: number }).code]).toEqual([404, 4])
    const unknown = await mj('/mj/task/123/fetch')
    expect([unknown.status, ((await unknown.json()) as { type: string }).type]).toEqual([404, 'task_not_found'])
    const bad = await mj('/mj/submit/imagine', { prompt: 42 })
    expect([bad.status, ((await bad.json()) as { code: number }).code]).toEqual([400, 4])
    const badButton = await mj('/mj/submit/action', { taskId: '1', customId: 'MJ::Nothing' })
    expect([badButton.status, ((await badButton.json()) as { type: string }).type]).toEqual([400, 'invalid_custom_id'])

    const id = await imagine('mine alone')
    const bob = await addUser(e.env.app, { username: 'bob', quota: 1_000_000 })
    const bobKey = await e.env.newKey({}, bob)
    expect((await mj(`/mj/task/${id}/fetch`, undefined, bobKey)).status).toBe(404)
    expect((await mj('/mj/submit/action', { taskId: id, customId: `MJ::JOB::upsample::1::${id}` }, bobKey)).status).toBe(404)
  })

  test('a submit the balance cannot pay is refused before the upstream hears of it, with its error row', async () => {
    const poor = await addUser(e.env.app, { username: 'poor', quota: 10 })
    const submits = e.mj.submits.length
    const response = await mj('/mj/submit/imagine', { prompt: 'too dear' }, await e.env.newKey({}, poor))
    expect([response.status, ((await response.json()) as { type: string }).type]).toEqual([403, 'insufficient_quota'])
    expect(e.mj.submits.length).toBe(submits)
    await e.env.app.deps.metering.logs.flush()
    const rows = (await e.env.app.deps.repos.logs.list({ type: 5, userId: poor.id }, 0, 5)).items
    expect(rows.map((row) => [row.modelName, row.statusCode])).toEqual([['mj_imagine', 403]])
  })

  test('tasks in flight are bounded per user (TaskMaxInFlightPerUser): one more is 429, nothing charged', async () => {
    const carol = await addUser(e.env.app, { username: 'carol', quota: 1_000_000 })
    const key = await e.env.newKey({}, carol)
    await e.env.app.deps.options.set('TaskMaxInFlightPerUser', 2)
    for (const prompt of ['one slow', 'two slow']) expect(((await (await mj('/mj/submit/imagine', { prompt }, key)).json()) as { code: number }).code).toBe(1)
    const before = await e.quotaOf(carol)
    const third = await mj('/mj/submit/imagine', { prompt: 'three' }, key)
    expect([third.status, ((await third.json()) as { type: string }).type]).toEqual([429, 'too_many_tasks'])
    expect(await e.quotaOf(carol)).toBe(before)
    await e.env.app.deps.options.set('TaskMaxInFlightPerUser', 20)
  })
})
