import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { findPrice } from '../../src/metering/prices'
import '../helpers/fake-upstreams/rerank'
import { fakeRerankTokens, fakeScore } from '../helpers/fake-upstreams/rerank'
import { account, logsOf, settled, userRow } from '../metering/env'
import { OP_KEY, startOperationsEnv, type OperationsEnv } from './env'

let o: OperationsEnv
beforeAll(async () => {
  o = await startOperationsEnv()
  await o.channel(38, 'jina-reranker-v2-base-multilingual,jina-reranker-unsorted,jina-billed')
  await o.channel(34, 'rerank-v3.5')
  await o.channel(40, 'BAAI/bge-reranker-v2-m3')
  await o.channel(17, 'gte-rerank-v2')
  await o.channel(8, 'local-reranker')
  await o.env.app.deps.options.set('ModelRatio', { 'jina-reranker-unsorted': 0.025, 'BAAI/bge-reranker-v2-m3': 0.01, 'local-reranker': 0.01, 'jina-billed': 10, 'failing-reranker': 0.01 })
})
afterAll(() => o.stop())

const post = (key: string, body: unknown) =>
  o.env.app.fetch('/v1/rerank', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })

const QUERY = 'capital of France'
const DOCS = ['Berlin is the capital of Germany.', 'Paris is the capital of France.', 'Bananas are yellow.', 'France exports wine.']
/** indexes of DOCS in descending fake relevance */
const ORDER = DOCS.map((d, i) => [i, fakeScore(QUERY, d)] as const).sort((a, b) => b[1] - a[1]).map(([i]) => i)

async function rerank(body: Record<string, unknown>, key = o.env.key) {
  const res = await post(key, { query: QUERY, documents: DOCS, ...body })
  expect(res.status).toBe(200)
  return (await res.json()) as any
}

describe('POST /v1/rerank', () => {
  test('a Jina channel: results in descending relevance, top_n honoured, documents as asked, Jina counts the tokens', async () => {
    const json = await rerank({ model: 'jina-reranker-v2-base-multilingual', top_n: 2, return_documents: true })
    expect(json.results).toEqual(ORDER.slice(0, 2).map((i) => ({ index: i, relevance_score: fakeScore(QUERY, DOCS[i]!), document: { text: DOCS[i] } })))
    expect(json.usage).toEqual({ prompt_tokens: fakeRerankTokens(QUERY, DOCS), total_tokens: fakeRerankTokens(QUERY, DOCS) })
    expect(json.model).toBe('jina-reranker-v2-base-multilingual')
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/v1/rerank')
    expect(sent.headers.authorization).toBe(`Bearer ${OP_KEY}`)
    expect(sent.json).toEqual({ model: 'jina-reranker-v2-base-multilingual', query: QUERY, documents: DOCS, top_n: 2, return_documents: true })
  })

  test('whatever order and count the upstream answers in, the client gets them sorted and cut at top_n', async () => {
    const json = await rerank({ model: 'jina-reranker-unsorted', top_n: 3, return_documents: false })
    expect(o.up.requests.at(-1)!.json.top_n).toBe(3)
    expect(json.results.map((r: any) => r.index)).toEqual(ORDER.slice(0, 3))
    expect(json.results[0]).not.toHaveProperty('document')
    const scores = json.results.map((r: any) => r.relevance_score)
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a))
  })

  test('documents as {text} objects go upstream as strings; return_documents left out follows the upstream (Jina sends them)', async () => {
    const json = await rerank({ model: 'jina-reranker-v2-base-multilingual', documents: DOCS.map((text) => ({ text, id: 'x' })) })
    expect(o.up.requests.at(-1)!.json.documents).toEqual(DOCS)
    expect(json.results).toHaveLength(4)
    expect(json.results[0].document).toEqual({ text: DOCS[ORDER[0]!] })
  })

  test('Cohere: native /v2/rerank with only the fields v2 takes; documents come from the client texts; meta passed on', async () => {
    const json = await rerank({ model: 'rerank-v3.5', top_n: 2, return_documents: true, max_tokens_per_doc: 512 })
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/v2/rerank')
    expect(sent.headers.authorization).toBe(`Bearer ${OP_KEY}`)
    expect(sent.json).toEqual({ model: 'rerank-v3.5', query: QUERY, documents: DOCS, top_n: 2, max_tokens_per_doc: 512 })
    expect(json.id).toBe('cohere-rerank-1')
    expect(json.results).toEqual(ORDER.slice(0, 2).map((i) => ({ index: i, relevance_score: fakeScore(QUERY, DOCS[i]!), document: { text: DOCS[i] } })))
    expect(json.meta.billed_units).toEqual({ search_units: 1 })
  })

  test('Cohere rerank-v3.5 ships priced per call (US$2 per 1,000 searches): the log row and the balance', async () => {
    const { user, key } = await account(o.env, 100_000)
    const count = o.env.outcomes.length
    await rerank({ model: 'rerank-v3.5' }, key)
    await settled(o.env, count + 1)
    const [row] = await logsOf(o.env, user.id)
    // US$0.002 × 500,000 quota per dollar
    expect(row).toMatchObject({ modelName: 'rerank-v3.5', quota: 1000, completionTokens: 0, type: 2 })
    expect(row!.promptTokens).toBeGreaterThan(0)
    expect((await userRow(o.env, user.id)).quota).toBe(100_000 - 1000)
  })

  test('billed per token on the upstream count (Jina usage.total_tokens); Jina rerankers ship at US$0.05 per million', async () => {
    expect(findPrice(o.env.app.deps.options, 'jina-reranker-m0', 'default')).toMatchObject({ mode: 'ratio', ratio: 0.025 })
    const { user, key } = await account(o.env, 1_000_000)
    const count = o.env.outcomes.length
    await rerank({ model: 'jina-billed' }, key)
    await settled(o.env, count + 1)
    const tokens = fakeRerankTokens(QUERY, DOCS)
    const [row] = await logsOf(o.env, user.id)
    expect(row).toMatchObject({ modelName: 'jina-billed', promptTokens: tokens, completionTokens: 0, quota: tokens * 10 })
    expect((await userRow(o.env, user.id)).quota).toBe(1_000_000 - tokens * 10)
  })

  test('SiliconFlow: Jina shape in, tokens read from meta.tokens, no documents unless asked', async () => {
    const json = await rerank({ model: 'BAAI/bge-reranker-v2-m3', top_n: 1 })
    expect(o.up.requests.at(-1)!.path).toBe('/v1/rerank')
    expect(json).toMatchObject({ id: 'sf-rerank-1', results: [{ index: ORDER[0] }], usage: { total_tokens: fakeRerankTokens(QUERY, DOCS) } })
    expect(json.results[0]).not.toHaveProperty('document')
  })

  test('Qwen: DashScope text-rerank with input/parameters; request_id as id, usage.total_tokens billed', async () => {
    const json = await rerank({ model: 'gte-rerank-v2', top_n: 2, return_documents: true, instruct: 'Retrieve semantically similar text.' })
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/api/v1/services/rerank/text-rerank/text-rerank')
    expect(sent.headers.authorization).toBe(`Bearer ${OP_KEY}`)
    expect(sent.json).toEqual({ model: 'gte-rerank-v2', input: { query: QUERY, documents: DOCS }, parameters: { return_documents: false, top_n: 2, instruct: 'Retrieve semantically similar text.' } })
    expect(json.id).toBe('ds-request-1')
    expect(json.results.map((r: any) => [r.index, r.document.text])).toEqual(ORDER.slice(0, 2).map((i) => [i, DOCS[i]]))
    expect(json.usage.total_tokens).toBe(fakeRerankTokens(QUERY, DOCS))
  })

  test('a custom (OpenAI-compatible) channel serves /v1/rerank in the rerank dialect', async () => {
    const json = await rerank({ model: 'local-reranker', top_n: 1 })
    expect(o.up.requests.at(-1)!.path).toBe('/v1/rerank')
    expect(json.results).toHaveLength(1)
  })

  test('bad input is a 400 naming the field, nothing sent or charged', async () => {
    const before = o.up.requests.length
    for (const [body, param] of [
      [{ model: 'rerank-v3.5', documents: DOCS }, 'query'],
      [{ model: 'rerank-v3.5', query: '  ', documents: DOCS }, 'query'],
      [{ model: 'rerank-v3.5', query: 'q' }, 'documents'],
      [{ model: 'rerank-v3.5', query: 'q', documents: [] }, 'documents'],
      [{ model: 'rerank-v3.5', query: 'q', documents: ['a', 7] }, 'documents[1]'],
      [{ model: 'rerank-v3.5', query: 'q', documents: [{ title: 'a' }] }, 'documents[0].text'],
      [{ model: 'rerank-v3.5', query: 'q', documents: ['a'], top_n: 0 }, 'top_n'],
      [{ model: 'rerank-v3.5', query: 'q', documents: ['a'], return_documents: 'yes' }, 'return_documents'],
      [{ query: 'q', documents: ['a'] }, 'model'],
    ] as const) {
      const res = await post(o.env.key, body)
      expect(res.status).toBe(400)
      const json = (await res.json()) as any
      expect(json.error.param).toBe(param)
      expect(json.error.message).toBeString()
    }
    expect(o.up.requests.length).toBe(before)
  })

  test('a failing channel fails over; an upstream 4xx comes back with the key masked', async () => {
    await o.channel(38, 'failing-reranker', { priority: 5 })
    await o.channel(8, 'failing-reranker', { priority: 0 })
    o.up.failNext('/v1/rerank', 503, { detail: 'overloaded' })
    const before = o.up.requests.length
    const ok = await post(o.env.key, { model: 'failing-reranker', query: QUERY, documents: DOCS })
    expect(ok.status).toBe(200)
    expect(o.up.requests.length).toBe(before + 2)
    o.up.failNext('/v1/rerank', 400, { detail: `query too long for key ${OP_KEY}` }, 2)
    const bad = await post(o.env.key, { model: 'failing-reranker', query: QUERY, documents: DOCS })
    expect(bad.status).toBe(400)
    const text = await bad.text()
    expect(text).toContain('query too long')
    expect(text).not.toContain(OP_KEY)
    expect(o.up.requests.length).toBe(before + 3)
  })

  test("DashScope's error shape is read: code and message", async () => {
    o.up.failNext('/api/v1/services/rerank/text-rerank/text-rerank', 400, { code: 'InvalidParameter', message: 'Range of documents should be [1, 500]', request_id: 'r' })
    const res = await post(o.env.key, { model: 'gte-rerank-v2', query: QUERY, documents: DOCS })
    expect(res.status).toBe(400)
    expect(((await res.json()) as any).error.message).toContain('InvalidParameter: Range of documents should be [1, 500]')
  })
})
