import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { fakeVector } from '../helpers/fake-upstreams/operations'
import { account, logsOf, settled, userRow } from '../metering/env'
import { startOperationsEnv, type OperationsEnv } from './env'

let o: OperationsEnv
beforeAll(async () => {
  o = await startOperationsEnv()
  await o.channel(1, 'text-embedding-3-small')
  await o.channel(24, 'gemini-embedding-001')
  await o.env.app.deps.options.set('ModelRatio', { 'gemini-embedding-001': 0.075 })
})
afterAll(() => o.stop())

const post = (key: string, body: unknown) =>
  o.env.app.fetch('/v1/embeddings', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('POST /v1/embeddings', () => {
  test('the OpenAI SDK gets vectors from an OpenAI channel; the body goes on with only the model', async () => {
    const res = await o.openai.embeddings.create({ model: 'text-embedding-3-small', input: ['hello world', 'bye'], dimensions: 3, encoding_format: 'float' })
    expect(res.data.map((d) => d.embedding)).toEqual([fakeVector('hello world', 3), fakeVector('bye', 3)])
    expect(res.usage.prompt_tokens).toBe(3)
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/v1/embeddings')
    expect(sent.json).toEqual({ model: 'text-embedding-3-small', input: ['hello world', 'bye'], dimensions: 3, encoding_format: 'float' })
  })

  test('the SDK default (base64) decodes to the same floats', async () => {
    const res = await o.openai.embeddings.create({ model: 'text-embedding-3-small', input: 'hello world' })
    expect(res.data[0]!.embedding).toEqual(fakeVector('hello world', 4))
    expect(o.up.requests.at(-1)!.json.encoding_format).toBe('base64')
  })

  test('an array input on a Gemini channel is one batchEmbedContents call, answered in OpenAI shape (base64 too)', async () => {
    const before = o.up.requests.length
    const res = await o.openai.embeddings.create({ model: 'gemini-embedding-001', input: ['alpha', 'beta gamma', 'delta'], dimensions: 5 })
    expect(res.data.map((d) => d.embedding)).toEqual(['alpha', 'beta gamma', 'delta'].map((t) => fakeVector(t, 5)))
    expect(res.model).toBe('gemini-embedding-001')
    const calls = o.up.requests.slice(before)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents')
    expect(calls[0]!.headers['x-goog-api-key']).toBeDefined()
    expect(calls[0]!.json.requests[1]).toEqual({ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'beta gamma' }] }, outputDimensionality: 5 })
  })

  test('billed per input token: the log row and the balance agree', async () => {
    const { user, key } = await account(o.env, 1_000_000)
    const count = o.env.outcomes.length
    const res = await post(key, { model: 'text-embedding-3-small', input: 'one two three four' })
    expect(res.status).toBe(200)
    await settled(o.env, count + 1)
    const [row] = await logsOf(o.env, user.id)
    expect(row).toMatchObject({ modelName: 'text-embedding-3-small', promptTokens: 4, completionTokens: 0, type: 2 })
    // $0.02 per million tokens = ratio 0.01: 4 tokens → 0.04 quota, at least 1
    expect(row!.quota).toBe(1)
    expect((await userRow(o.env, user.id)).quota).toBe(1_000_000 - 1)
  })

  test('bad input is a 400 in OpenAI shape naming the field, and nothing is sent or charged', async () => {
    const before = o.up.requests.length
    for (const [body, param] of [
      [{ model: 'text-embedding-3-small' }, 'input'],
      [{ model: 'text-embedding-3-small', input: [] }, 'input'],
      [{ model: 'text-embedding-3-small', input: ['a', 7] }, 'input[1]'],
      [{ model: 'text-embedding-3-small', input: 'a', encoding_format: 'int8' }, 'encoding_format'],
      [{ input: 'a' }, 'model'],
    ] as const) {
      const res = await post(o.env.key, body)
      expect(res.status).toBe(400)
      const json = (await res.json()) as any
      expect(json.error.param).toBe(param)
      expect(json.error.message).toBeString()
    }
    expect(o.up.requests.length).toBe(before)
  })

  test('a model no channel serves is a 404; a key is required first', async () => {
    expect((await post(o.env.key, { model: 'nope', input: 'a' })).status).toBe(404)
    const anonymous = await o.env.app.fetch('/v1/embeddings', { method: 'POST', body: '{"model":"x"}' })
    expect(anonymous.status).toBe(401)
  })

  test('a failing channel fails over to the next; a 400 upstream comes back to the client', async () => {
    const second = await o.channel(1, 'text-embedding-3-large', { priority: -1 })
    await o.channel(1, 'text-embedding-3-large', { priority: 5 })
    o.up.failNext('/v1/embeddings', 503, { error: { message: 'overloaded' } })
    const res = await post(o.env.key, { model: 'text-embedding-3-large', input: 'x' })
    expect(res.status).toBe(200)
    expect(second).toBeGreaterThan(0)
    o.up.failNext('/v1/embeddings', 400, { error: { message: 'input too long for sk-operations-upstream-key-42' } }, 2)
    const bad = await post(o.env.key, { model: 'text-embedding-3-large', input: 'x' })
    expect(bad.status).toBe(400)
    const text = await bad.text()
    expect(text).toContain('input too long')
    expect(text).not.toContain('sk-operations-upstream-key-42')
  })
})
