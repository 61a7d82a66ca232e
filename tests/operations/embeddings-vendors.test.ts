import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { startEmbeddingVendor, type EmbeddingVendor, type FakeEmbeddingVendor } from '../helpers/fake-upstreams/embedding-vendors'
import { fakeVector } from '../helpers/fake-upstreams/operations'
import type { RelayEnv } from '../helpers/relay-env'
import { account, logsOf, settled, startMeteredEnv } from '../metering/env'

/**
 * `/v1/embeddings` through every vendor shape, with the official OpenAI SDK (which asks for base64 unless told
 * otherwise): what each fake vendor received on its own path with its own auth header, and what the client got.
 */

const KEY = 'vendor-embedding-key-0123456789'

interface Case {
  vendor: EmbeddingVendor
  type: number
  model: string
  /** the path the vendor must receive */
  path: string | RegExp
  /** the header the key travels in, as the vendor expects it; undefined: no key at all (Ollama) */
  auth?: [string, string]
  /** what `encoding_format` the vendor must see for the SDK's default call (undefined: none sent) */
  format?: 'base64'
  basePath?: string
  other?: string
  keyless?: boolean
}

const bearer: [string, string] = ['authorization', `Bearer ${KEY}`]
const CASES: Case[] = [
  { vendor: 'azure', type: 3, model: 'emb-deploy', path: '/openai/deployments/emb-deploy/embeddings?api-version=2024-10-21', auth: ['api-key', KEY], format: 'base64' },
  { vendor: 'ollama', type: 4, model: 'nomic-embed-text', path: '/v1/embeddings', format: 'base64', keyless: true },
  { vendor: 'jina', type: 38, model: 'jina-embeddings-v3', path: '/v1/embeddings', auth: bearer },
  { vendor: 'cohere', type: 34, model: 'embed-v4.0', path: '/v2/embed', auth: bearer },
  { vendor: 'mistral', type: 42, model: 'mistral-embed', path: '/v1/embeddings', auth: bearer, format: 'base64' },
  { vendor: 'siliconflow', type: 40, model: 'BAAI/bge-m3', path: '/v1/embeddings', auth: bearer, format: 'base64' },
  { vendor: 'qwen', type: 17, model: 'text-embedding-v4', path: '/compatible-mode/v1/embeddings', auth: bearer },
  { vendor: 'zhipu', type: 26, model: 'embedding-3', path: '/api/paas/v4/embeddings', auth: bearer },
  { vendor: 'doubao', type: 45, model: 'doubao-embedding-text-240715', path: '/api/v3/embeddings', auth: bearer },
  { vendor: 'xinference', type: 47, model: 'bge-large-zh-v1.5', path: '/v1/embeddings', auth: bearer },
  { vendor: 'cloudflare', type: 39, model: '@cf/baai/bge-m3', path: '/client/v4/accounts/acct-42/ai/v1/embeddings', auth: bearer, other: 'acct-42' },
  { vendor: 'lenient', type: 8, model: 'e5-large-v2', path: '/openai/v1/embeddings', auth: bearer, format: 'base64', basePath: '/openai' },
]

let env: RelayEnv
let openai: OpenAI
const fakes = new Map<EmbeddingVendor, FakeEmbeddingVendor>()
const fake = (vendor: EmbeddingVendor) => fakes.get(vendor)!

beforeAll(async () => {
  env = await startMeteredEnv()
  openai = new OpenAI({ apiKey: env.key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
  const ratios: Record<string, number> = {}
  for (const c of CASES) {
    const up = await startEmbeddingVendor(c.vendor, KEY)
    fakes.set(c.vendor, up)
    const baseUrl = up.url + (c.basePath ?? '')
    await env.app.deps.routing.channels.create([{ name: c.vendor, type: c.type, baseUrl, keyText: c.keyless ? '' : KEY, models: c.model, group: 'default', ...(c.other ? { other: c.other } : {}) }])
    ratios[c.model] = 0.05
  }
  await env.app.deps.options.set('ModelRatio', ratios)
})
afterAll(async () => {
  await env.stop()
  for (const up of fakes.values()) await up.stop()
})

const post = (body: unknown, key = env.key) =>
  env.app.fetch('/v1/embeddings', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('the OpenAI SDK gets the vectors each vendor made, from its own path with its own auth', () => {
  for (const c of CASES) {
    test(`${c.vendor} (type ${c.type})`, async () => {
      const up = fake(c.vendor)
      up.requests.length = 0
      const res = await openai.embeddings.create({ model: c.model, input: ['hello world', 'bye'] })
      expect(res.data.map((d) => d.embedding)).toEqual([fakeVector('hello world'), fakeVector('bye')])
      expect(up.requests).toHaveLength(1)
      const sent = up.requests[0]!
      expect(sent.path).toBe(c.path as string)
      if (c.auth) expect(sent.headers[c.auth[0]]).toBe(c.auth[1])
      else expect(sent.headers.authorization).toBeUndefined()
      if (c.vendor !== 'cohere') {
        expect(sent.json.model).toBe(c.model)
        expect(sent.json.input).toEqual(['hello world', 'bye'])
        expect(sent.json.encoding_format).toBe(c.format)
      }
    })
  }
})

describe('vendor fields', () => {
  test('Jina: its own fields pass as sent, encoding_format never does; base64 is made by the gateway', async () => {
    const up = fake('jina')
    up.requests.length = 0
    const raw = await post({ model: 'jina-embeddings-v3', input: ['a query'], task: 'retrieval.query', late_chunking: true, dimensions: 3, encoding_format: 'base64' })
    expect(raw.status).toBe(200)
    const body = (await raw.json()) as any
    expect(typeof body.data[0].embedding).toBe('string')
    expect(Array.from(new Float32Array(Buffer.from(body.data[0].embedding, 'base64').buffer.slice(0)))).toEqual(fakeVector('a query', 3))
    expect(up.requests[0]!.json).toEqual({ model: 'jina-embeddings-v3', input: ['a query'], task: 'retrieval.query', late_chunking: true, dimensions: 3 })
  })

  test("Jina: a client that picks Jina's own embedding_type gets Jina's answer untouched", async () => {
    const raw = await post({ model: 'jina-embeddings-v3', input: ['abc'], embedding_type: 'binary' })
    const body = (await raw.json()) as any
    expect(body.data[0].embedding).toEqual([3, 7])
    expect(fake('jina').requests.at(-1)!.json.embedding_type).toBe('binary')
  })

  test('Cohere /v2/embed: input_type from the client (default search_document), dimensions as output_dimension, billed tokens', async () => {
    const up = fake('cohere')
    up.requests.length = 0
    const res = await openai.embeddings.create({ model: 'embed-v4.0', input: 'find me', dimensions: 3, input_type: 'search_query' } as OpenAI.EmbeddingCreateParams)
    expect(res.data[0]!.embedding).toEqual(fakeVector('find me', 3))
    expect(res.usage.prompt_tokens).toBe(3)
    expect(up.requests[0]!.json).toEqual({ model: 'embed-v4.0', texts: ['find me'], input_type: 'search_query', embedding_types: ['float'], output_dimension: 3 })
    await openai.embeddings.create({ model: 'embed-v4.0', input: 'a document' })
    expect(up.requests[1]!.json.input_type).toBe('search_document')
    const bad = await post({ model: 'embed-v4.0', input: 'x', input_type: 'poetry' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as any).error.param).toBe('input_type')
    expect(up.requests).toHaveLength(2)
  })

  test('Cohere: the log row bills the tokens Cohere counted', async () => {
    const { user, key } = await account(env, 1_000_000)
    const count = env.outcomes.length
    expect((await post({ model: 'embed-v4.0', input: ['one two three', 'four'] }, key)).status).toBe(200)
    await settled(env, count + 1)
    expect((await logsOf(env, user.id))[0]).toMatchObject({ modelName: 'embed-v4.0', promptTokens: 5, completionTokens: 0 })
  })

  test('Mistral: dimensions goes as output_dimension, user is dropped (Mistral refuses unknown fields)', async () => {
    const up = fake('mistral')
    up.requests.length = 0
    const res = await openai.embeddings.create({ model: 'mistral-embed', input: 'codestral', dimensions: 2, user: 'u-1', encoding_format: 'float' })
    expect(res.data[0]!.embedding).toEqual(fakeVector('codestral', 2))
    expect(up.requests[0]!.json).toEqual({ model: 'mistral-embed', input: 'codestral', output_dimension: 2, encoding_format: 'float' })
  })

  test('Azure: the api-version comes from the channel other', async () => {
    const up = await startEmbeddingVendor('azure', KEY)
    await env.app.deps.routing.channels.create([{ name: 'az2', type: 3, baseUrl: up.url, keyText: KEY, models: 'text-embedding-3-large', other: '2025-04-01-preview', group: 'default' }])
    await openai.embeddings.create({ model: 'text-embedding-3-large', input: 'x', dimensions: 8 })
    expect(up.requests[0]!.path).toBe('/openai/deployments/text-embedding-3-large/embeddings?api-version=2025-04-01-preview')
    expect(up.requests[0]!.json.dimensions).toBe(8)
    await up.stop()
  })
})

describe('Gemini clients', () => {
  const embed = (model: string, body: unknown) =>
    env.app.fetch(`/v1beta/models/${model}:embedContent`, { method: 'POST', headers: { 'x-goog-api-key': env.key, 'content-type': 'application/json' }, body: JSON.stringify(body) })

  test("a Gemini client's taskType reaches Cohere as input_type, its size as output_dimension; Gemini's shape back", async () => {
    const res = await embed('embed-v4.0', { content: { parts: [{ text: 'where is it' }] }, taskType: 'RETRIEVAL_QUERY', outputDimensionality: 2 })
    expect(await res.json()).toEqual({ embedding: { values: fakeVector('where is it', 2) } })
    expect(fake('cohere').requests.at(-1)!.json).toEqual({ model: 'embed-v4.0', texts: ['where is it'], input_type: 'search_query', embedding_types: ['float'], output_dimension: 2 })
  })

  test('a Gemini client on Jina and on a floats-only vendor: texts asked as floats, no encoding_format where refused', async () => {
    expect(await (await embed('jina-embeddings-v3', { content: { parts: [{ text: 'j' }] } })).json()).toEqual({ embedding: { values: fakeVector('j') } })
    expect(fake('jina').requests.at(-1)!.json).toEqual({ model: 'jina-embeddings-v3', input: ['j'] })
    expect(await (await embed('text-embedding-v4', { content: { parts: [{ text: 'q' }] }, outputDimensionality: 3 })).json()).toEqual({ embedding: { values: fakeVector('q', 3) } })
    expect(fake('qwen').requests.at(-1)!.json).toEqual({ model: 'text-embedding-v4', input: ['q'], dimensions: 3 })
  })
})

describe('formats and token ids', () => {
  test('a server that ignores encoding_format and reports no usage: the wire answer is base64 as asked, usage counted here', async () => {
    const raw = await post({ model: 'e5-large-v2', input: ['hello world'], encoding_format: 'base64' })
    const body = (await raw.json()) as any
    expect(typeof body.data[0].embedding).toBe('string')
    expect(Array.from(new Float32Array(Buffer.from(body.data[0].embedding, 'base64').buffer.slice(0)))).toEqual(fakeVector('hello world'))
    expect(body.usage.prompt_tokens).toBeGreaterThan(0)
    expect(fake('lenient').requests.at(-1)!.json.encoding_format).toBe('base64')
  })

  test('a floats-only vendor asked for floats answers untouched', async () => {
    const body = (await (await post({ model: 'text-embedding-v4', input: 'x', encoding_format: 'float' })).json()) as any
    expect(body.data[0].embedding).toEqual(fakeVector('x'))
    expect(fake('qwen').requests.at(-1)!.json.encoding_format).toBeUndefined()
  })

  test('token ids: a 400 naming input for vendors that take text only, nothing sent; passed on where the vendor takes them', async () => {
    for (const c of CASES.filter((x) => ['jina', 'cohere', 'mistral', 'qwen', 'zhipu', 'doubao', 'xinference', 'cloudflare'].includes(x.vendor))) {
      const before = fake(c.vendor).requests.length
      const res = await post({ model: c.model, input: [[1, 2, 3]] })
      expect(res.status, c.vendor).toBe(400)
      expect(((await res.json()) as any).error).toMatchObject({ param: 'input', message: expect.stringContaining('token ids') })
      expect(fake(c.vendor).requests.length, c.vendor).toBe(before)
    }
    const res = await openai.embeddings.create({ model: 'BAAI/bge-m3', input: [[5, 6, 7]], encoding_format: 'float' })
    expect(res.data[0]!.embedding).toEqual(fakeVector('[5,6,7]'))
    expect(fake('siliconflow').requests.at(-1)!.json.input).toEqual([[5, 6, 7]])
  })
})
