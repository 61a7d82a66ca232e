import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { toFile } from 'openai'
import { fakeImage } from '../helpers/fake-upstreams/images'
import { account, logsOf, settled, userRow } from '../metering/env'
import { OP_KEY, startOperationsEnv, type OperationsEnv } from './env'
import OpenAI from 'openai'

// US$ → quota at the default QuotaPerUnit (500,000 = US$1)
const quota = (usd: number) => Math.round(usd * 500_000)

let o: OperationsEnv
beforeAll(async () => {
  o = await startOperationsEnv()
  await o.channel(1, 'dall-e-2,dall-e-3,gpt-image-1')
  await o.channel(3, 'gpt-image-1-mini', { other: '2025-04-01-preview' })
  await o.channel(8, 'flux-schnell')
  await o.env.app.deps.options.set('ModelPrice', { 'flux-schnell': 0.003 })
})
afterAll(() => o.stop())

/** A client of its own user and balance, so its log rows and balance are its own. */
async function payer(balance = 10_000_000) {
  const { user, key } = await account(o.env, balance)
  return { user, client: new OpenAI({ apiKey: key, baseURL: `${o.env.app.url}/v1`, maxRetries: 0 }), key }
}

async function lastRow(userId: number) {
  await settled(o.env, o.env.outcomes.length)
  const rows = await logsOf(o.env, userId)
  return { row: rows.at(-1)!, other: JSON.parse(rows.at(-1)!.other) }
}

const postJson = (key: string, body: unknown) =>
  o.env.app.fetch('/v1/images/generations', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('POST /v1/images/generations', () => {
  test('dall-e-3 hd: the SDK gets the URL; the body goes on with only the model; one image billed at its size and quality', async () => {
    const { user, client } = await payer()
    const count = o.env.outcomes.length
    const res = await client.images.generate({ model: 'dall-e-3', prompt: 'a red fox', size: '1792x1024', quality: 'hd', style: 'natural', response_format: 'url' })
    expect(res.data![0]!.url).toBe('https://images.example/0.png')
    expect(res.data![0]!.revised_prompt).toBe('a red fox')
    expect(o.up.requests.at(-1)!.path).toBe('/v1/images/generations')
    expect(o.up.requests.at(-1)!.json).toEqual({ model: 'dall-e-3', prompt: 'a red fox', size: '1792x1024', quality: 'hd', style: 'natural', response_format: 'url' })
    await settled(o.env, count + 1)
    const { row, other } = await lastRow(user.id)
    expect(row).toMatchObject({ modelName: 'dall-e-3', promptTokens: 1, completionTokens: 0, type: 2, quota: quota(0.12) })
    expect(other.price).toMatchObject({ mode: 'unit', variant: '1792x1024/hd', usd: 0.12 })
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000 - quota(0.12))
  })

  test('defaults price as OpenAI bills them: dall-e-3 standard 1024x1024, gpt-image-1 auto/auto as the costliest (high, oblong)', async () => {
    const { user, client } = await payer()
    await client.images.generate({ model: 'dall-e-3', prompt: 'a cat' })
    expect((await lastRow(user.id)).row.quota).toBe(quota(0.04))
    const res = await client.images.generate({ model: 'gpt-image-1', prompt: 'a dog' })
    expect(res.data![0]!.b64_json).toBe(fakeImage('a dog', 0))
    const { row, other } = await lastRow(user.id)
    expect(row.quota).toBe(quota(0.25))
    expect(other.price.variant).toBe('auto/auto')
  })

  test('gpt-image-1: n images at size/quality; b64_json is dropped (GPT image models refuse the field), url is a 400', async () => {
    const { user, client, key } = await payer()
    const res = await client.images.generate({ model: 'gpt-image-1', prompt: 'three birds', n: 3, size: '1024x1536', quality: 'low', response_format: 'b64_json', background: 'transparent', output_format: 'webp' })
    expect(res.data!.map((d) => d.b64_json)).toEqual([0, 1, 2].map((i) => fakeImage('three birds', i)))
    expect(res.usage?.output_tokens).toBe(3 * 4160)
    const sent = o.up.requests.at(-1)!.json
    expect(sent.response_format).toBeUndefined()
    expect(sent).toMatchObject({ model: 'gpt-image-1', n: 3, background: 'transparent', output_format: 'webp' })
    const { row, other } = await lastRow(user.id)
    expect(row).toMatchObject({ promptTokens: 3, quota: 3 * quota(0.016) })
    expect(other.reserved).toBe(3 * quota(0.016))
    const url = await postJson(key, { model: 'gpt-image-1', prompt: 'x', response_format: 'url' })
    expect(url.status).toBe(400)
    expect(((await url.json()) as any).error.param).toBe('response_format')
  })

  test('settles the images actually returned, the reservation was n', async () => {
    const { user, client } = await payer()
    const res = await client.images.generate({ model: 'dall-e-2', prompt: 'two moons [fewer]', n: 2, size: '256x256' })
    expect(res.data).toHaveLength(1)
    const { row, other } = await lastRow(user.id)
    expect(row).toMatchObject({ promptTokens: 1, quota: quota(0.016) })
    expect(other.reserved).toBe(2 * quota(0.016))
    expect(other.price.variant).toBe('256x256')
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000 - quota(0.016))
  })

  test('an answer without images is a failed attempt: a 503, nothing billed', async () => {
    const { user, key } = await payer()
    const res = await postJson(key, { model: 'dall-e-2', prompt: 'nothing [none]' })
    expect(res.status).toBe(503)
    expect(((await res.json()) as any).error.message).toContain('without images')
    const { row } = await lastRow(user.id)
    expect(row).toMatchObject({ type: 5, quota: 0 })
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000)
  })

  test('a model priced per call (ModelPrice) costs that per image, on a compatible server', async () => {
    const { user, client } = await payer()
    await client.images.generate({ model: 'flux-schnell', prompt: 'a lake', n: 2, size: '768x768' })
    expect(o.up.requests.at(-1)!.json).toEqual({ model: 'flux-schnell', prompt: 'a lake', n: 2, size: '768x768' })
    const { row, other } = await lastRow(user.id)
    expect(row.quota).toBe(2 * quota(0.003))
    expect(other.price).toMatchObject({ mode: 'unit', variant: '768x768' })
  })

  test('ImagePrice overrides the shipped price of a size', async () => {
    const { user, client } = await payer()
    await o.env.app.deps.options.set('ImagePrice', { 'dall-e-2': { '512x512': 0.5 } })
    try {
      await client.images.generate({ model: 'dall-e-2', prompt: 'a hill', size: '512x512' })
      expect((await lastRow(user.id)).row.quota).toBe(quota(0.5))
    } finally {
      await o.env.app.deps.options.set('ImagePrice', {})
    }
  })

  test('Azure: the deployment path with the api-version from `other`, the key as api-key', async () => {
    const { user, client } = await payer()
    const res = await client.images.generate({ model: 'gpt-image-1-mini', prompt: 'a boat', quality: 'medium', size: '1024x1024' })
    expect(res.data![0]!.b64_json).toBe(fakeImage('a boat', 0))
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/openai/deployments/gpt-image-1-mini/images/generations?api-version=2025-04-01-preview')
    expect(sent.headers['api-key']).toBe(OP_KEY)
    expect(sent.headers.authorization).toBeUndefined()
    expect((await lastRow(user.id)).row.quota).toBe(quota(0.011))
  })

  test('bad input is a 400 naming the field, per model family; nothing is sent or charged', async () => {
    const { user, key } = await payer()
    const before = o.up.requests.length
    for (const [body, param] of [
      [{ model: 'dall-e-3' }, 'prompt'],
      [{ model: 'dall-e-2', prompt: 'x', n: 11 }, 'n'],
      [{ model: 'dall-e-2', prompt: 'x', n: 0 }, 'n'],
      [{ model: 'dall-e-3', prompt: 'x', n: 2 }, 'n'],
      [{ model: 'dall-e-3', prompt: 'x', size: '512x512' }, 'size'],
      [{ model: 'dall-e-2', prompt: 'x', size: '1792x1024' }, 'size'],
      [{ model: 'gpt-image-1', prompt: 'x', size: '1792x1024' }, 'size'],
      [{ model: 'flux-schnell', prompt: 'x', size: 'big' }, 'size'],
      [{ model: 'dall-e-3', prompt: 'x', quality: 'high' }, 'quality'],
      [{ model: 'gpt-image-1', prompt: 'x', quality: 'hd' }, 'quality'],
      [{ model: 'gpt-image-1', prompt: 'x', style: 'vivid' }, 'style'],
      [{ model: 'dall-e-3', prompt: 'x', background: 'transparent' }, 'background'],
      [{ model: 'dall-e-3', prompt: 'x', style: 'loud' }, 'style'],
      [{ model: 'gpt-image-1', prompt: 'x', output_format: 'bmp' }, 'output_format'],
      [{ model: 'dall-e-2', prompt: 'x'.repeat(1001) }, 'prompt'],
      [{ model: 'dall-e-3', prompt: 'x', stream: true }, 'stream'],
      [{ model: 'dall-e-2', prompt: 'x', response_format: 'png' }, 'response_format'],
    ] as const) {
      const res = await postJson(key, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      const json = (await res.json()) as any
      expect(json.error.param, JSON.stringify(body)).toBe(param)
      expect(json.error.message).toBeString()
    }
    expect(o.up.requests.length).toBe(before)
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000)
  })

  test('a failing channel fails over; an upstream 400 comes back with the key masked', async () => {
    const backup = await o.channel(1, 'dall-e-2-failover', { priority: -1 })
    await o.channel(1, 'dall-e-2-failover', { priority: 5 })
    await o.env.app.deps.options.set('ImagePrice', { 'dall-e-2-failover': { '1024x1024': 0.02 } })
    const { client, key } = await payer()
    o.up.failNext('/v1/images/generations', 503, { error: { message: 'overloaded' } })
    const before = o.up.requests.length
    const res = await client.images.generate({ model: 'dall-e-2-failover', prompt: 'a tree' })
    expect(res.data).toHaveLength(1)
    expect(o.up.requests.length - before).toBe(2)
    expect(backup).toBeGreaterThan(0)
    o.up.failNext('/v1/images/generations', 400, { error: { message: `Your request was rejected by the safety system (key ${OP_KEY})`, code: 'content_policy_violation' } })
    const bad = await postJson(key, { model: 'dall-e-2-failover', prompt: 'a tree' })
    expect(bad.status).toBe(400)
    const text = await bad.text()
    expect(text).toContain('safety system')
    expect(text).not.toContain(OP_KEY)
    await o.env.app.deps.options.set('ImagePrice', {})
  })
})

describe('POST /v1/images/edits', () => {
  const png = (label: string) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, ...new TextEncoder().encode(label)])

  test('gpt-image-1 with image[] and a mask: the files reach the upstream byte for byte, fields too; billed per image', async () => {
    const { user, client } = await payer()
    const [a, b, mask] = [png('first image'), png('second image'), png('the mask')]
    const res = await client.images.edit({
      model: 'gpt-image-1',
      image: [await toFile(a, 'a.png', { type: 'image/png' }), await toFile(b, 'b.png', { type: 'image/png' })],
      mask: await toFile(mask, 'mask.png', { type: 'image/png' }),
      prompt: 'put them together',
      n: 2,
      size: '1024x1024',
      quality: 'medium',
      input_fidelity: 'high',
    })
    expect(res.data!.map((d) => d.b64_json)).toEqual([0, 1].map((i) => fakeImage('put them together', i)))
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/v1/images/edits')
    expect(sent.headers['content-type']).toStartWith('multipart/form-data; boundary=')
    const images = sent.form!.getAll('image[]') as File[]
    expect(images.map((f) => f.name)).toEqual(['a.png', 'b.png'])
    expect(images.map((f) => f.type)).toEqual(['image/png', 'image/png'])
    expect(await images[0]!.bytes()).toEqual(a)
    expect(await images[1]!.bytes()).toEqual(b)
    expect(await (sent.form!.get('mask') as File).bytes()).toEqual(mask)
    for (const [field, value] of Object.entries({ model: 'gpt-image-1', prompt: 'put them together', n: '2', size: '1024x1024', quality: 'medium', input_fidelity: 'high' })) {
      expect(sent.form!.get(field)).toBe(value)
    }
    const { row } = await lastRow(user.id)
    expect(row).toMatchObject({ modelName: 'gpt-image-1', promptTokens: 2, quota: 2 * quota(0.042) })
  })

  test('dall-e-2 edits one image; b64_json asked for comes back', async () => {
    const { user, client } = await payer()
    const res = await client.images.edit({ model: 'dall-e-2', image: await toFile(png('square'), 'sq.png', { type: 'image/png' }), prompt: 'add a hat', size: '512x512', response_format: 'b64_json' })
    expect(res.data![0]!.b64_json).toBe(fakeImage('add a hat', 0))
    expect(o.up.requests.at(-1)!.form!.get('response_format')).toBe('b64_json')
    expect((await lastRow(user.id)).row.quota).toBe(quota(0.018))
  })

  test('a bad form is a 400 naming the field', async () => {
    const { key } = await payer()
    const before = o.up.requests.length
    const file = () => new File([png('x')], 'x.png', { type: 'image/png' })
    const cases: [Record<string, string | File | File[]>, string][] = [
      [{ model: 'gpt-image-1', prompt: 'x' }, 'image'],
      [{ model: 'gpt-image-1', prompt: 'x', image: 'not a file' }, 'image'],
      [{ model: 'gpt-image-1', image: file() }, 'prompt'],
      [{ model: 'dall-e-3', prompt: 'x', image: file() }, 'model'],
      [{ model: 'dall-e-2', prompt: 'x', 'image[]': [file(), file()] }, 'image'],
      [{ model: 'gpt-image-1', prompt: 'x', image: file(), n: 'two' }, 'n'],
      [{ model: 'gpt-image-1', prompt: 'x', image: file(), mask: 'nope' }, 'mask'],
      [{ model: 'gpt-image-1', prompt: 'x', image: file(), size: '256x256' }, 'size'],
      [{ model: 'dall-e-2', prompt: 'x', image: file(), stream: 'true' }, 'stream'],
      [{ model: 'gpt-image-1', prompt: 'x', image: file(), stream: 'true', partial_images: '5' }, 'partial_images'],
      [{ model: 'dall-e-2', prompt: 'x', image: new File([new Uint8Array(4 * 1024 * 1024 + 1)], 'big.png') }, 'image'],
      [{ model: 'dall-e-2', prompt: 'x', image: file(), mask: new File([new Uint8Array(4 * 1024 * 1024 + 1)], 'm.png') }, 'mask'],
    ]
    for (const [fields, param] of cases) {
      const form = new FormData()
      for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) form.append(name, v)
      const res = await o.env.app.fetch('/v1/images/edits', { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form })
      expect(res.status, JSON.stringify(Object.keys(fields))).toBe(400)
      expect(((await res.json()) as any).error.param, param).toBe(param)
    }
    const json = await o.env.app.fetch('/v1/images/edits', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' })
    expect(json.status).toBe(400)
    expect(o.up.requests.length).toBe(before)
  })
})

describe('POST /v1/images/variations', () => {
  const png = (label: string) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, ...new TextEncoder().encode(label)])

  test('the SDK gets n variations of its image; the file reaches the upstream byte for byte; billed per image at dall-e-2 size prices', async () => {
    const { user, client } = await payer()
    const image = png('a square')
    const res = await client.images.createVariation({ image: await toFile(image, 'sq.png', { type: 'image/png' }), n: 3, size: '256x256' })
    expect(res.data!.map((d) => d.url)).toEqual([0, 1, 2].map((i) => `https://images.example/variation-${i}.png`))
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/v1/images/variations')
    expect(await (sent.form!.get('image') as File).bytes()).toEqual(image)
    expect(sent.form!.get('model')).toBe('dall-e-2')
    expect(sent.form!.get('n')).toBe('3')
    const { row, other } = await lastRow(user.id)
    expect(row).toMatchObject({ modelName: 'dall-e-2', promptTokens: 3, quota: 3 * quota(0.016) })
    expect(other.price).toMatchObject({ mode: 'unit', variant: '256x256' })
  })

  test('a bad form is a 400 naming the field, and nothing goes upstream', async () => {
    const { key } = await payer()
    const before = o.up.requests.length
    const file = () => new File([png('x')], 'x.png', { type: 'image/png' })
    const cases: [Record<string, string | File | File[]>, string][] = [
      [{}, 'image'],
      [{ image: 'not a file' }, 'image'],
      [{ image: [file(), file()] }, 'image'],
      [{ image: file(), prompt: 'a hat' }, 'prompt'],
      [{ image: file(), model: 'dall-e-3' }, 'model'],
      [{ image: file(), n: '11' }, 'n'],
      [{ image: file(), size: '1792x1024' }, 'size'],
      [{ image: file(), response_format: 'gif' }, 'response_format'],
      [{ image: new File([new Uint8Array(4 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' }) }, 'image'],
    ]
    for (const [fields, param] of cases) {
      const form = new FormData()
      for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) form.append(name, v)
      const res = await o.env.app.fetch('/v1/images/variations', { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form })
      expect(res.status, JSON.stringify(Object.keys(fields))).toBe(400)
      expect(((await res.json()) as any).error.param, param).toBe(param)
    }
    expect(o.up.requests.length).toBe(before)
  })

  test('an image just under 4 MB goes through; a body past the body limit is a 413, nothing sent or charged', async () => {
    const { user, client, key } = await payer()
    const image = new Uint8Array(4 * 1024 * 1024).fill(9)
    await client.images.createVariation({ image: await toFile(image, 'edge.png', { type: 'image/png' }), n: 1, size: '256x256' })
    expect((await (o.up.requests.at(-1)!.form!.get('image') as File).bytes()).length).toBe(image.length)
    const before = o.up.requests.length
    const charged = (await userRow(o.env, user.id)).quota
    const form = new FormData()
    form.append('image', new File([new Uint8Array(33 * 1024 * 1024)], 'huge.png', { type: 'image/png' }))
    const res = await o.env.app.fetch('/v1/images/variations', { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form })
    expect(res.status).toBe(413)
    expect(o.up.requests.length).toBe(before)
    expect((await userRow(o.env, user.id)).quota).toBe(charged)
  })

  test('a Custom (OpenAI-compatible) channel serves variations too, under its own model name, billed at ModelPrice per image', async () => {
    await o.channel(8, 'compat-variations', { modelMapping: JSON.stringify({ 'compat-variations': 'dall-e-2' }) })
    await o.env.app.deps.options.set('ModelPrice', { 'flux-schnell': 0.003, 'compat-variations': 0.01 })
    const { user, client } = await payer()
    const res = await client.images.createVariation({ model: 'compat-variations', image: await toFile(png('c'), 'c.png', { type: 'image/png' }), n: 2 })
    expect(res.data).toHaveLength(2)
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/v1/images/variations')
    expect(sent.form!.get('model')).toBe('dall-e-2')
    const { row } = await lastRow(user.id)
    expect(row).toMatchObject({ modelName: 'compat-variations', promptTokens: 2, quota: 2 * quota(0.01) })
  })
})
