import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI, { toFile } from 'openai'
import { fakeImage, fakePartial, imageStreams } from '../helpers/fake-upstreams/images'
import '../helpers/fake-upstreams/vendor-images'
import { until } from '../helpers/wait'
import { account, logsOf, settled, userRow } from '../metering/env'
import { startOperationsEnv, type OperationsEnv } from './env'

/**
 * Streamed images (`stream: true`): GPT image models' partial images on `/v1/images/generations` and `/edits`,
 * Seedream's sequences; relayed as the upstream's SSE events, billed per completed image.
 */

const quota = (usd: number) => Math.round(usd * 500_000)
/** gpt-image-1 at 1024x1024/low, as OpenAI lists it */
const LOW = quota(0.011)
let o: OperationsEnv
beforeAll(async () => {
  o = await startOperationsEnv()
  await o.channel(1, 'gpt-image-1,dall-e-2')
  await o.channel(45, 'doubao-seedream-4-0-250828')
  await o.channel(24, 'imagen-4.0-generate-001')
  await o.env.app.deps.options.set('ModelPrice', { 'doubao-seedream-4-0-250828': 0.03, 'imagen-4.0-generate-001': 0.04 })
})
afterAll(() => o.stop())

async function payer(balance = 10_000_000) {
  const { user, key } = await account(o.env, balance)
  return { user, key, client: new OpenAI({ apiKey: key, baseURL: `${o.env.app.url}/v1`, maxRetries: 0 }) }
}
async function lastRow(userId: number) {
  await settled(o.env, o.env.outcomes.length)
  const row = (await logsOf(o.env, userId)).at(-1)!
  return { row, other: JSON.parse(row.other) }
}
const post = (key: string, body: unknown, signal?: AbortSignal) =>
  o.env.app.fetch('/v1/images/generations', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal })

describe('GPT image models stream partial images', () => {
  test('the SDK gets each partial image, then each completed image with its usage; billed per completed image', async () => {
    const { user, client } = await payer()
    const stream = await client.images.generate({ model: 'gpt-image-1', prompt: 'two owls', n: 2, size: '1024x1024', quality: 'low', stream: true, partial_images: 2 })
    const events: { type: string; b64: string; index?: number; tokens?: number }[] = []
    for await (const event of stream) {
      events.push({ type: event.type, b64: event.b64_json, index: 'partial_image_index' in event ? event.partial_image_index : undefined, tokens: 'usage' in event ? event.usage.output_tokens : undefined })
    }
    expect(events).toEqual([
      { type: 'image_generation.partial_image', b64: fakePartial('two owls', 0, 0), index: 0, tokens: undefined },
      { type: 'image_generation.partial_image', b64: fakePartial('two owls', 0, 1), index: 1, tokens: undefined },
      { type: 'image_generation.completed', b64: fakeImage('two owls', 0), index: undefined, tokens: 4360 },
      { type: 'image_generation.partial_image', b64: fakePartial('two owls', 1, 0), index: 0, tokens: undefined },
      { type: 'image_generation.partial_image', b64: fakePartial('two owls', 1, 1), index: 1, tokens: undefined },
      { type: 'image_generation.completed', b64: fakeImage('two owls', 1), index: undefined, tokens: 4360 },
    ])
    expect(o.up.requests.at(-1)!.json).toMatchObject({ model: 'gpt-image-1', stream: true, partial_images: 2, n: 2 })
    const { row, other } = await lastRow(user.id)
    expect(row).toMatchObject({ modelName: 'gpt-image-1', isStream: true, promptTokens: 2, quota: 2 * LOW })
    expect(other.price).toMatchObject({ mode: 'unit', variant: '1024x1024/low' })
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000 - 2 * LOW)
  })

  test('on the wire: SSE with each event named as the upstream named it', async () => {
    const { key } = await payer()
    const res = await post(key, { model: 'gpt-image-1', prompt: 'a kite', quality: 'low', size: '1024x1024', stream: true, partial_images: 1 })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const text = await res.text()
    expect(text.split('\n\n').filter(Boolean).map((frame) => frame.split('\n')[0])).toEqual(['event: image_generation.partial_image', 'event: image_generation.completed'])
  })

  test('edits stream too (image_edit events); the form goes on with stream and partial_images', async () => {
    const { user, client } = await payer()
    const image = await toFile(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), 'in.png', { type: 'image/png' })
    const stream = await client.images.edit({ model: 'gpt-image-1', image, prompt: 'add a hat', size: '1024x1024', quality: 'low', stream: true, partial_images: 1 })
    const types: string[] = []
    for await (const event of stream) types.push(event.type)
    expect(types).toEqual(['image_edit.partial_image', 'image_edit.completed'])
    const sent = o.up.requests.at(-1)!.form!
    expect([sent.get('stream'), sent.get('partial_images')]).toEqual(['true', '1'])
    const { row } = await lastRow(user.id)
    expect(row).toMatchObject({ isStream: true, promptTokens: 1, quota: LOW })
  })

  test('the client going away aborts the upstream stream and settles: no image completed, nothing billed', async () => {
    const { user, key } = await payer()
    const count = o.env.outcomes.length
    const cancelled = imageStreams.cancelled
    const abort = new AbortController()
    const res = await post(key, { model: 'gpt-image-1', prompt: 'slow painting [hang]', quality: 'low', size: '1024x1024', stream: true, partial_images: 2 }, abort.signal)
    const reader = res.body!.getReader()
    const { value } = await reader.read()
    expect(new TextDecoder().decode(value)).toContain('image_generation.partial_image')
    abort.abort()
    await until(() => imageStreams.cancelled > cancelled, { what: 'the upstream stream cancelled' })
    await settled(o.env, count + 1)
    expect(o.env.outcomes.at(-1)!.aborted).toBe(true)
    const { row, other } = await lastRow(user.id)
    expect(row.quota).toBe(0)
    expect(other.aborted).toBe(true)
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000)
  })

  test('an upstream that breaks off after its previews: the client gets an error event, nothing is billed', async () => {
    const { user, key } = await payer()
    const res = await post(key, { model: 'gpt-image-1', prompt: 'fragile [break]', quality: 'low', size: '1024x1024', stream: true, partial_images: 1 })
    const text = await res.text()
    expect(text).toContain('image_generation.partial_image')
    expect(text).toContain('"upstream_error"')
    const { row, other } = await lastRow(user.id)
    expect(row.quota).toBe(0)
    expect(other.error).toContain('broke off')
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000)
  })

  test('an error event before any image fails the attempt: an error answer in OpenAI shape, nothing billed', async () => {
    const { user, key } = await payer()
    const res = await post(key, { model: 'gpt-image-1', prompt: 'busy [error]', stream: true })
    expect(res.status).toBe(503)
    expect(((await res.json()) as any).error.message).toContain('overloaded')
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000)
  })
})

describe('which requests stream', () => {
  test('a model that cannot stream is a 400 naming stream (or partial_images), nothing sent', async () => {
    const { key } = await payer()
    const before = o.up.requests.length
    const cases: [Record<string, unknown>, string][] = [
      [{ model: 'dall-e-2', prompt: 'x', stream: true }, 'stream'],
      [{ model: 'imagen-4.0-generate-001', prompt: 'x', stream: true }, 'stream'],
      [{ model: 'gpt-image-1', prompt: 'x', stream: 'yes' }, 'stream'],
      [{ model: 'gpt-image-1', prompt: 'x', stream: true, partial_images: 4 }, 'partial_images'],
      [{ model: 'dall-e-2', prompt: 'x', partial_images: 1 }, 'partial_images'],
    ]
    for (const [body, param] of cases) {
      const res = await post(key, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(((await res.json()) as any).error.param).toBe(param)
    }
    expect(o.up.requests.length).toBe(before)
  })

  test('a streamed request goes only to channels whose dialect streams: a model only an Imagen (Gemini) channel serves is a 404 naming streamed', async () => {
    await o.channel(24, 'painter-x')
    await o.env.app.deps.options.set('ModelPrice', { 'doubao-seedream-4-0-250828': 0.03, 'imagen-4.0-generate-001': 0.04, 'painter-x': 0.01 })
    const { key } = await payer()
    const before = o.up.requests.length
    const res = await post(key, { model: 'painter-x', prompt: 'x', stream: true })
    expect(res.status).toBe(404)
    const error = ((await res.json()) as any).error
    expect(error.code).toBe('model_not_found')
    expect(error.message).toContain('streamed /v1/images/generations')
    expect(o.up.requests.length).toBe(before)
    // unstreamed, the same model is served there
    expect((await post(key, { model: 'painter-x', prompt: 'x' })).status).toBe(200)
  })

  test('Seedream streams a sequence: each image as partial_succeeded, then completed with generated_images, which is billed', async () => {
    const { user, key } = await payer()
    const res = await post(key, { model: 'doubao-seedream-4-0-250828', prompt: 'a comic', stream: true, sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: 4 } })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const frames = (await res.text()).split('\n\n').filter(Boolean)
    expect(frames.at(-1)).toBe('data: [DONE]')
    const types = frames.slice(0, -1).map((frame) => JSON.parse(frame.slice('data: '.length)).type)
    // the fake makes 3 of a sequence and fails the middle one
    expect(types).toEqual(['image_generation.partial_succeeded', 'image_generation.partial_failed', 'image_generation.partial_succeeded', 'image_generation.completed'])
    const { row, other } = await lastRow(user.id)
    expect(row).toMatchObject({ isStream: true, promptTokens: 2, quota: 2 * quota(0.03) })
    expect(other.reserved).toBe(4 * quota(0.03))
  })
})
