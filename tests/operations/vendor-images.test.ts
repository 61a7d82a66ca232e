import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { fakeImage } from '../helpers/fake-upstreams/images'
import '../helpers/fake-upstreams/vendor-images'
import { account, logsOf, settled, userRow } from '../metering/env'
import { OP_KEY, startOperationsEnv, type OperationsEnv } from './env'
import { aspectRatioOf } from '../../src/operations/images/imagen'

/**
 * `/v1/images/generations` to vendors that are not OpenAI-shaped or take their own fields: Imagen through a Gemini
 * channel (`:predict`), Seedream through a Doubao (Ark) channel; billed per image actually delivered.
 */

const quota = (usd: number) => Math.round(usd * 500_000)
let o: OperationsEnv
beforeAll(async () => {
  o = await startOperationsEnv()
  await o.channel(24, 'imagen-4.0-generate-001')
  await o.channel(45, 'doubao-seedream-4-0-250828')
  await o.channel(17, 'wanx2.1-t2i-turbo')
  await o.env.app.deps.options.set('ModelPrice', { 'imagen-4.0-generate-001': 0.04, 'doubao-seedream-4-0-250828': 0.03, 'wanx2.1-t2i-turbo': 0.02 })
})
afterAll(() => o.stop())

async function payer(balance = 10_000_000) {
  const { user, key } = await account(o.env, balance)
  return { user, key, client: new OpenAI({ apiKey: key, baseURL: `${o.env.app.url}/v1`, maxRetries: 0 }) }
}
async function rows(userId: number) {
  await settled(o.env, o.env.outcomes.length)
  return logsOf(o.env, userId)
}

describe('Imagen through a Gemini channel', () => {
  test('the SDK gets b64_json; the request goes to :predict with sampleCount and the nearest aspect ratio; billed per image', async () => {
    const { user, client } = await payer()
    const res = await client.images.generate({ model: 'imagen-4.0-generate-001', prompt: 'a lighthouse', n: 2, size: '1792x1024' })
    expect(res.data!.map((d) => d.b64_json)).toEqual([fakeImage('a lighthouse', 0), fakeImage('a lighthouse', 1)])
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/v1beta/models/imagen-4.0-generate-001:predict')
    expect(sent.headers['x-goog-api-key']).toBe(OP_KEY)
    expect(sent.json).toEqual({ instances: [{ prompt: 'a lighthouse' }], parameters: { sampleCount: 2, aspectRatio: '16:9' } })
    const [row] = await rows(user.id)
    expect(row).toMatchObject({ modelName: 'imagen-4.0-generate-001', promptTokens: 2, quota: quota(0.08) })
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000 - quota(0.08))
  })

  test('response_format url answers data: URLs; a filtered sample is neither returned nor billed', async () => {
    const { user, client } = await payer()
    const res = await client.images.generate({ model: 'imagen-4.0-generate-001', prompt: 'a harbour [filtered]', n: 3, response_format: 'url' })
    expect(res.data!.map((d) => d.url)).toEqual([1, 2].map((i) => `data:image/png;base64,${fakeImage('a harbour [filtered]', i)}`))
    expect(o.up.requests.at(-1)!.json.parameters).toEqual({ sampleCount: 3 })
    const [row] = await rows(user.id)
    expect(row).toMatchObject({ promptTokens: 2, quota: quota(0.08) })
  })

  test('every sample filtered: an error, nothing charged; n above 4 is a 400 before any call', async () => {
    const { user, key, client } = await payer()
    const before = o.up.requests.length
    const failed = await client.images.generate({ model: 'imagen-4.0-generate-001', prompt: 'x [none]' }).catch((e) => e)
    expect(failed).toBeInstanceOf(OpenAI.APIError)
    expect(failed.status).toBeGreaterThanOrEqual(500)
    expect(o.up.requests.length).toBe(before + 1)
    const tooMany = await o.env.app.fetch('/v1/images/generations', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'imagen-4.0-generate-001', prompt: 'y', n: 5 }) })
    expect(tooMany.status).toBe(400)
    expect(((await tooMany.json()) as any).error.param).toBe('n')
    expect(o.up.requests.length).toBe(before + 1)
    await settled(o.env, o.env.outcomes.length)
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000)
  })

  test('sizes map to the nearest ratio Imagen takes', () => {
    expect([aspectRatioOf('1024x1024'), aspectRatioOf('1536x1024'), aspectRatioOf('1024x1536'), aspectRatioOf('1024x1792'), aspectRatioOf('auto'), aspectRatioOf(undefined)]).toEqual(['1:1', '4:3', '3:4', '9:16', undefined, undefined])
  })
})

describe('Seedream through a Doubao (Ark) channel', () => {
  test("Ark's own fields go on as sent; 2K is a size; one image billed", async () => {
    const { user, client } = await payer()
    const body = { model: 'doubao-seedream-4-0-250828', prompt: 'a fox', size: '2K', watermark: false, seed: 7 } as any
    const res = await client.images.generate(body)
    expect(res.data![0]!.url).toBe('https://ark.example/0.jpeg')
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/api/v3/images/generations')
    expect(sent.headers.authorization).toBe(`Bearer ${OP_KEY}`)
    expect(sent.json).toEqual(body)
    const [row] = await rows(user.id)
    expect(row).toMatchObject({ modelName: 'doubao-seedream-4-0-250828', promptTokens: 1, quota: quota(0.03) })
  })

  test('a sequence reserves max_images and bills the images made', async () => {
    const post = (key: string, max: number) =>
      o.env.app.fetch('/v1/images/generations', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'doubao-seedream-4-0-250828', prompt: 'a comic', sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: max } }),
      })
    // a balance for 3 images cannot reserve a sequence of 4, and nothing is sent
    const poor = await account(o.env, quota(0.03) * 3)
    const before = o.up.requests.length
    expect((await post(poor.key, 4)).status).toBe(403)
    expect(o.up.requests.length).toBe(before)
    // the fake makes 3 of the 4 asked: 3 are billed
    const rich = await account(o.env, quota(0.03) * 4)
    const ok = await post(rich.key, 4)
    expect(ok.status).toBe(200)
    expect(((await ok.json()) as any).data).toHaveLength(3)
    const [row] = await rows(rich.user.id)
    expect(row).toMatchObject({ promptTokens: 3, quota: quota(0.09) })
    expect((await userRow(o.env, rich.user.id)).quota).toBe(quota(0.03))
  })

  test('a size Ark does not take is a 400 naming size', async () => {
    const { key } = await payer()
    const res = await o.env.app.fetch('/v1/images/generations', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'doubao-seedream-4-0-250828', prompt: 'x', size: '3K' }) })
    expect(res.status).toBe(400)
    expect(((await res.json()) as any).error.param).toBe('size')
  })
})

describe('Wanx through a Qwen (DashScope) channel: a task submitted and polled within the attempt', () => {
  const post = (key: string, body: Record<string, unknown>) =>
    o.env.app.fetch('/v1/images/generations', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'wanx2.1-t2i-turbo', ...body }) })

  test('submitted async with DashScope\'s body, polled until it succeeds, answered as OpenAI links; billed per image', async () => {
    const { user, client } = await payer()
    const before = o.up.requests.length
    const res = await client.images.generate({ model: 'wanx2.1-t2i-turbo', prompt: 'a tea house [slow]', n: 2, size: '1024x768', seed: 42, negative_prompt: 'people' } as any)
    const sent = o.up.requests.slice(before)
    // the task route answers GETs only: RUNNING at the first poll, SUCCEEDED at the second
    const task = sent[1]!.path.split('/').at(-1)
    expect(sent.map((r) => r.path)).toEqual(['/api/v1/services/aigc/text2image/image-synthesis', `/api/v1/tasks/${task}`, `/api/v1/tasks/${task}`])
    expect(res.data!.map((d) => [d.url, d.revised_prompt])).toEqual([0, 1].map((i) => [`https://dashscope-result.example/${task}/${i}.png`, 'a tea house [slow], detailed']))
    expect(sent[0]!.headers['x-dashscope-async']).toBe('enable')
    expect(sent[0]!.json).toEqual({ model: 'wanx2.1-t2i-turbo', input: { prompt: 'a tea house [slow]', negative_prompt: 'people' }, parameters: { n: 2, size: '1024*768', seed: 42 } })
    expect(sent[1]!.headers.authorization).toBe(`Bearer ${OP_KEY}`)
    expect(sent[1]!.headers['x-dashscope-async']).toBeUndefined()
    const [row] = await rows(user.id)
    expect(row).toMatchObject({ modelName: 'wanx2.1-t2i-turbo', promptTokens: 2, quota: quota(0.04) })
  })

  test('an image the task failed is not billed; a failed task is the client\'s 400, nothing charged', async () => {
    const { user, key } = await payer()
    const partial = await post(key, { prompt: 'a garden [partial]', n: 3 })
    expect(partial.status).toBe(200)
    expect(((await partial.json()) as any).data).toHaveLength(2)
    expect((await rows(user.id))[0]).toMatchObject({ promptTokens: 2, quota: quota(0.04) })
    const failed = await post(key, { prompt: 'x [fail]' })
    expect(failed.status).toBe(400)
    expect(((await failed.json()) as any).error.message).toContain('DataInspectionFailed')
    await settled(o.env, o.env.outcomes.length)
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000 - quota(0.04))
  })

  test('b64_json is refused before any call (DashScope gives links only)', async () => {
    const { key } = await payer()
    const before = o.up.requests.length
    const res = await post(key, { prompt: 'x', response_format: 'b64_json' })
    expect(res.status).toBe(400)
    expect(((await res.json()) as any).error.param).toBe('response_format')
    expect(o.up.requests.length).toBe(before)
  })
})
