import { GoogleGenAI } from '@google/genai'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { fakeVector } from '../helpers/fake-upstreams/operations'
import { account, logsOf, settled, userRow } from '../metering/env'
import { OP_KEY, startOperationsEnv, type OperationsEnv } from './env'

/**
 * The Gemini ingress for embeddings (`:embedContent`, `:batchEmbedContents`) and `:countTokens`, driven by the
 * `@google/genai` SDK and by raw requests: routed to OpenAI and Gemini channels, answered and failing in Gemini's
 * shape, billed like `/v1/embeddings`; countTokens answered here without an upstream call or a charge.
 */

let o: OperationsEnv
let genai: GoogleGenAI

beforeAll(async () => {
  o = await startOperationsEnv()
  await o.channel(1, 'text-embedding-3-small')
  await o.channel(24, 'gemini-embedding-001,gemini-2.5-flash')
  genai = new GoogleGenAI({ apiKey: o.env.key, httpOptions: { baseUrl: o.env.app.url } })
})
afterAll(() => o.stop())

const post = (path: string, body: unknown, headers: Record<string, string> = { 'x-goog-api-key': o.env.key }) =>
  o.env.app.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
const content = (text: string) => ({ parts: [{ text }] })

describe('embedContent and batchEmbedContents', () => {
  test('the SDK embeds one content through an OpenAI channel: floats asked upstream, Gemini shape back', async () => {
    const before = o.up.requests.length
    const res = await genai.models.embedContent({ model: 'text-embedding-3-small', contents: 'hello world', config: { outputDimensionality: 3 } })
    expect(res.embeddings?.map((e) => e.values)).toEqual([fakeVector('hello world', 3)])
    const sent = o.up.requests.slice(before)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.path).toBe('/v1/embeddings')
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${OP_KEY}`)
    expect(sent[0]!.json).toEqual({ model: 'text-embedding-3-small', input: ['hello world'], encoding_format: 'float', dimensions: 3 })
  })

  test('the SDK embeds several contents through a Gemini channel in one call; task type and title go on as sent', async () => {
    const before = o.up.requests.length
    const res = await genai.models.embedContent({
      model: 'gemini-embedding-001',
      contents: ['alpha', 'beta gamma'],
      config: { taskType: 'RETRIEVAL_DOCUMENT', title: 'Greek', outputDimensionality: 4 },
    })
    expect(res.embeddings?.map((e) => e.values)).toEqual([fakeVector('alpha', 4), fakeVector('beta gamma', 4)])
    const sent = o.up.requests.slice(before)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents')
    expect(sent[0]!.headers['x-goog-api-key']).toBe(OP_KEY)
    expect(sent[0]!.json.requests[1]).toEqual({ content: { role: 'user', parts: [{ text: 'beta gamma' }] }, taskType: 'RETRIEVAL_DOCUMENT', title: 'Greek', outputDimensionality: 4, model: 'models/gemini-embedding-001' })
  })

  test(':embedContent answers {embedding: {values}}; /v1/models/ and ?key= are served too; text parts are one input', async () => {
    const one = await post('/v1beta/models/text-embedding-3-small:embedContent', { content: { parts: [{ text: 'ab' }, { text: 'cd' }] } })
    expect(one.status).toBe(200)
    expect(await one.json()).toEqual({ embedding: { values: fakeVector('ab\ncd') } })
    expect(o.up.requests.at(-1)!.json.input).toEqual(['ab\ncd'])
    const v1 = await post(`/v1/models/gemini-embedding-001:embedContent?key=${o.env.key}`, { model: 'models/gemini-embedding-001', content: content('x') }, {})
    expect(await v1.json()).toEqual({ embedding: { values: fakeVector('x') } })
    expect(o.up.requests.at(-1)!.json.requests).toEqual([{ model: 'models/gemini-embedding-001', content: content('x') }])
  })

  test('billed like /v1/embeddings: the log row and the balance', async () => {
    const { user, key } = await account(o.env, 1_000_000)
    const count = o.env.outcomes.length
    const res = await post('/v1beta/models/text-embedding-3-small:batchEmbedContents', { requests: [{ content: content('one two three') }, { content: content('four') }] }, { 'x-goog-api-key': key })
    expect(res.status).toBe(200)
    expect(((await res.json()) as any).embeddings).toHaveLength(2)
    await settled(o.env, count + 1)
    const [row] = await logsOf(o.env, user.id)
    expect(row).toMatchObject({ modelName: 'text-embedding-3-small', promptTokens: 4, completionTokens: 0, type: 2 })
    expect(row!.quota).toBe(1)
    expect((await userRow(o.env, user.id)).quota).toBe(1_000_000 - 1)
  })

  test("bad bodies are 400s in Gemini's shape naming the field; nothing is sent", async () => {
    const before = o.up.requests.length
    const cases: [string, unknown, string][] = [
      ['embedContent', {}, 'content'],
      ['embedContent', { content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] } }, 'content.parts[0]'],
      ['embedContent', { model: 'models/other', content: content('x') }, 'model'],
      ['batchEmbedContents', { requests: [] }, 'requests'],
      ['batchEmbedContents', { requests: [{ content: content('a'), taskType: 'RETRIEVAL_QUERY' }, { content: content('b'), taskType: 'CLUSTERING' }] }, 'requests[1].taskType'],
      ['batchEmbedContents', { requests: [{ content: content('a'), outputDimensionality: 0 }] }, 'requests[0].outputDimensionality'],
    ]
    for (const [action, body, field] of cases) {
      const res = await post(`/v1beta/models/text-embedding-3-small:${action}`, body)
      expect(res.status, field).toBe(400)
      const error = ((await res.json()) as any).error
      expect(error, field).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' })
      expect(error.message, field).toStartWith(`${field}: `)
    }
    expect(o.up.requests.length).toBe(before)
  })

  test("an unknown model is Gemini's 404; no key is its 401", async () => {
    const unknown = await post('/v1beta/models/nope-embed:embedContent', { content: content('x') })
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as any).error.status).toBe('NOT_FOUND')
    const anonymous = await post('/v1beta/models/text-embedding-3-small:embedContent', { content: content('x') }, {})
    expect(((await anonymous.json()) as any).error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' })
  })
})

describe('countTokens', () => {
  test('the SDK counts contents locally, as /v1/messages/count_tokens counts the same text; nothing goes upstream or is charged', async () => {
    const requests = o.up.requests.length
    const outcomes = o.env.outcomes.length
    const text = 'How many tokens is this sentence, counted by the gateway?'
    const res = await genai.models.countTokens({ model: 'gemini-2.5-flash', contents: text })
    const anthropic = await o.env.app.fetch('/v1/messages/count_tokens', {
      method: 'POST',
      headers: { 'x-api-key': o.env.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: text }] }),
    })
    const { input_tokens } = (await anthropic.json()) as { input_tokens: number }
    expect(res.totalTokens).toBeGreaterThan(5)
    expect(res.totalTokens).toBe(input_tokens)
    expect(o.up.requests.length).toBe(requests)
    expect(o.env.outcomes.length).toBe(outcomes)
  })

  test('generateContentRequest counts its system instruction too; the body is checked', async () => {
    const contents = [{ role: 'user', parts: [{ text: 'hello there' }] }]
    const plain = (await (await post('/v1beta/models/gemini-2.5-flash:countTokens', { contents })).json()) as { totalTokens: number }
    const full = await post('/v1/models/gemini-2.5-flash:countTokens', {
      generateContentRequest: { model: 'models/gemini-2.5-flash', contents, systemInstruction: { parts: [{ text: 'You are a careful assistant who answers briefly.' }] } },
    })
    expect(full.status).toBe(200)
    expect(((await full.json()) as { totalTokens: number }).totalTokens).toBeGreaterThan(plain.totalTokens)
    for (const body of [{}, { contents: 'x' }, { contents, generateContentRequest: { contents } }, { generateContentRequest: [] }]) {
      const res = await post('/v1beta/models/gemini-2.5-flash:countTokens', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(((await res.json()) as any).error.status).toBe('INVALID_ARGUMENT')
    }
  })
})

test('the model list names each model its methods: embedding models embed, chat models generate, both count', async () => {
  const res = await o.env.app.fetch('/v1beta/models', { headers: { 'x-goog-api-key': o.env.key } })
  const models = ((await res.json()) as { models: { name: string; supportedGenerationMethods: string[] }[] }).models
  const methods = Object.fromEntries(models.map((m) => [m.name, m.supportedGenerationMethods]))
  expect(methods['models/gemini-embedding-001']).toEqual(['embedContent', 'batchEmbedContents', 'countTokens'])
  expect(methods['models/text-embedding-3-small']).toEqual(['embedContent', 'batchEmbedContents', 'countTokens'])
  expect(methods['models/gemini-2.5-flash']).toEqual(['generateContent', 'streamGenerateContent', 'countTokens'])
})
