import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startEmbeddingVendor, type FakeEmbeddingVendor } from '../../helpers/fake-upstreams/embedding-vendors'
import { startOperationsUpstream, type OperationsUpstream } from '../../helpers/fake-upstreams/operations'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { userHeaders } from './helpers'

/**
 * The channel test of channels that serve embeddings: a Jina channel (no chat protocol at all) and an
 * embeddings-only OpenAI-compatible server are tested with an embeddings call through their own dialect, path and
 * auth, never a chat; so is a chat vendor's channel whose test model is an embedding model.
 */

const KEY = 'embed-check-key-0123456789'
let app: TestApp
let admin: Record<string, string>
let jina: FakeEmbeddingVendor
let compatible: FakeEmbeddingVendor
let ops: OperationsUpstream

beforeAll(async () => {
  app = await startTestApp()
  admin = await userHeaders(app)
  jina = await startEmbeddingVendor('jina', KEY)
  compatible = await startEmbeddingVendor('siliconflow', KEY)
  ops = await startOperationsUpstream({ key: KEY })
})
afterAll(async () => {
  await app.stop()
  await Promise.all([jina.stop(), compatible.stop(), ops.stop()])
})

async function make(body: Record<string, unknown>): Promise<number> {
  const res = await call(app, 'POST', '/api/channel/', { name: 'c', ...body }, admin)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data.id
}
const runTest = (id: number, model?: string) => call(app, 'GET', `/api/channel/test/${id}${model ? `?model=${encodeURIComponent(model)}` : ''}`, undefined, admin)

test("a Jina channel is tested with an embeddings call on Jina's path, in Jina's dialect (no encoding_format, which Jina refuses)", async () => {
  const id = await make({ type: 38, key: KEY, base_url: jina.url, models: 'jina-embeddings-v3' })
  jina.requests.length = 0
  const res = await runTest(id)
  expect(res.body.success).toBe(true)
  expect(res.body.data).toMatchObject({ status_code: 200, model: 'jina-embeddings-v3' })
  expect(jina.requests).toHaveLength(1)
  expect(jina.requests[0]!.path).toBe('/v1/embeddings')
  expect(jina.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`)
  expect(jina.requests[0]!.json).toEqual({ model: 'jina-embeddings-v3', input: 'hi' })
  expect((await app.deps.repos.channels.findById(id))!.testTime).toBeGreaterThan(0)
})

test('a Jina channel with a dead key: the failing key is named with the upstream message, the key never shown', async () => {
  const id = await make({ type: 38, key: `${KEY}\njina-dead-key-999999`, base_url: jina.url, models: 'jina-embeddings-v3' })
  const res = await runTest(id)
  expect(res.body.success).toBe(false)
  expect(res.body.message).toContain('1 of 2 keys failed')
  expect(res.body.message).toContain('key 2')
  expect(res.body.message).toContain('Incorrect API key provided')
  expect(JSON.stringify(res.body)).not.toContain('jina-dead-key-999999')
})

test('an embeddings-only OpenAI-compatible server (type 8) is tested with an embeddings call, never a chat it does not serve', async () => {
  const id = await make({ type: 8, key: KEY, base_url: compatible.url, models: 'BAAI/bge-m3' })
  compatible.requests.length = 0
  const res = await runTest(id)
  expect(res.body.success).toBe(true)
  expect(compatible.requests.map((r) => r.path)).toEqual(['/v1/embeddings'])
  expect(compatible.requests[0]!.json).toEqual({ model: 'BAAI/bge-m3', input: 'hi', encoding_format: 'float' })
})

test('a chat vendor whose test model is an embedding model: an embeddings call in its dialect (OpenAI, Gemini batchEmbedContents)', async () => {
  const openai = await make({ type: 1, key: KEY, base_url: ops.url, models: 'gpt-4o-mini,text-embedding-3-small', test_model: 'text-embedding-3-small' })
  const gemini = await make({ type: 24, key: KEY, base_url: ops.url, models: 'gemini-embedding-001' })
  ops.requests.length = 0
  expect((await runTest(openai)).body.success).toBe(true)
  expect((await runTest(gemini)).body.success).toBe(true)
  expect(ops.requests.map((r) => r.path)).toEqual(['/v1/embeddings', '/v1beta/models/gemini-embedding-001:batchEmbedContents'])
  expect(ops.requests[1]!.headers['x-goog-api-key']).toBe(KEY)
  // ?model= picks the chat model: then a chat is sent, which this fake does not serve
  const chat = await runTest(openai, 'gpt-4o-mini')
  expect(chat.body.success).toBe(false)
  expect(ops.requests.at(-1)!.path).toBe('/v1/chat/completions')
})

test('a 2xx that is not an embeddings answer fails the test, saying so; a 404 brings the upstream message', async () => {
  const id = await make({ type: 8, key: KEY, base_url: ops.url, models: 'm3e-base' })
  ops.failNext('/v1/embeddings', 200, { object: 'list', result: 'nothing' })
  const odd = await runTest(id)
  expect(odd.body.success).toBe(false)
  expect(odd.body.message).toContain('not as /v1/embeddings answers')
  const gone = await make({ type: 8, key: KEY, base_url: `${ops.url}/elsewhere`, models: 'm3e-base' })
  const missing = await runTest(gone)
  expect(missing.body).toMatchObject({ success: false, data: { status_code: 404 } })
  expect(missing.body.message).toContain('no route POST /elsewhere/v1/embeddings')
})
