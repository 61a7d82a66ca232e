/**
 * The building blocks against the fake token endpoint and the fake Vertex endpoint, and the fakes against Google's
 * own client (@google/genai in Vertex mode): what a Vertex channel will send, and what the fakes refuse.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { GoogleGenAI } from '@google/genai'
import { createTokenSource } from '../../../src/providers/signing/google-access-token'
import { serviceAccountOf } from '../../../src/providers/signing/google-service-account'
import {
  type VertexOperation,
  vertexAnthropicBetas,
  vertexAnthropicBody,
  vertexAnthropicCountTokensBody,
  vertexModelId,
  vertexRefusedBetas,
  vertexRegion,
  vertexUrl,
} from '../../../src/providers/vertex'
import { type FakeGoogleToken, type TestServiceAccount, startFakeGoogleToken } from '../../helpers/fake-upstreams/google-token'
import { type FakeVertex, startFakeVertex } from '../../helpers/fake-upstreams/vertex'

let clock = Date.now()
const now = () => clock
let google: FakeGoogleToken
let vertex: FakeVertex
let sa: TestServiceAccount
const tokens = createTokenSource({ now })
const OTHER = JSON.stringify({ default: 'us-central1', 'claude-sonnet-4-5-20250929': 'us-east5' })

beforeAll(async () => {
  google = await startFakeGoogleToken({ now })
  vertex = await startFakeVertex({ tokens: google, locations: ['us-central1', 'us-east5', 'global'] })
  sa = await google.createAccount({ projectId: 'tollgate-proj' })
})
afterAll(async () => {
  await vertex.stop()
  await google.stop()
})
beforeEach(() => vertex.reset())

/** One call the way a Vertex channel makes it: region from other, project from the key, a minted bearer token. */
async function call(model: string, operation: VertexOperation, body: unknown, headers: Record<string, string> = {}, key = sa.json) {
  const url = vertexUrl({ project: serviceAccountOf(key).projectId, region: vertexRegion(OTHER, model), model, operation, baseUrl: vertex.url })
  const authorization = `Bearer ${await tokens.accessTokenFor(key, fetch)}`
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization, ...headers }, body: JSON.stringify(body) })
}

const messages = [{ role: 'user', content: 'Say hi' }]

describe('Claude on Vertex through the building blocks', () => {
  test('rawPredict: the body without model, in the region other names for the model, answered in Anthropic\'s shape', async () => {
    const warnings: string[] = []
    const res = await call('claude-sonnet-4-5-20250929', 'generate', vertexAnthropicBody({ model: 'claude-sonnet-4-5-20250929', max_tokens: 100, messages }, warnings))
    expect(res.status).toBe(200)
    const answer = (await res.json()) as any
    expect(answer).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-sonnet-4-5@20250929', content: [{ type: 'text', text: 'Hello from the fake Vertex.' }], stop_reason: 'end_turn' })
    expect(answer.id).toStartWith('msg_vrtx_01')
    const rec = vertex.requests[0]!
    expect(rec.path).toBe('/v1/projects/tollgate-proj/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict')
    expect(rec.json).toEqual({ max_tokens: 100, messages, anthropic_version: 'vertex-2023-10-16' })
    expect(rec.token!.clientEmail).toBe(sa.clientEmail)
  })

  test('streamRawPredict: Anthropic\'s SSE events with thinking and a tool call', async () => {
    vertex.setBehavior({ reasoning: 'Let me think.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] })
    const body = { model: 'claude-sonnet-4-5@20250929', max_tokens: 2000, stream: true, thinking: { type: 'enabled', budget_tokens: 1024 }, messages }
    const res = await call(body.model, 'stream', vertexAnthropicBody(body, []))
    expect(res.headers.get('content-type')).toStartWith('text/event-stream')
    const text = await res.text()
    const events = [...text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1])
    expect(events[0]).toBe('message_start')
    expect(events.at(-1)).toBe('message_stop')
    expect(text).toContain('"type":"thinking_delta"')
    expect(text).toContain('"type":"signature_delta"')
    expect(text).toContain('"type":"input_json_delta"')
    expect(vertex.requests[0]!.action).toBe('streamRawPredict')
  })

  test('count-tokens:rawPredict with the model in the body and no betas', async () => {
    const warnings: string[] = []
    const model = 'claude-sonnet-4-5-20250929'
    const betas = vertexAnthropicBetas('token-counting-2024-11-01', warnings, true)
    const res = await call(model, 'countTokens', vertexAnthropicCountTokensBody({ model, messages }, vertexModelId(model), warnings), betas ? { 'anthropic-beta': betas } : {})
    expect(res.status).toBe(200)
    expect(((await res.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0)
    expect(vertex.requests[0]!.path).toEndWith('/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict')
    expect(vertex.requests[0]!.json.model).toBe('claude-sonnet-4-5@20250929')
  })

  test('a beta Vertex refuses is a 400 that vertexRefusedBetas reads; the retry without it passes; filtered flags pass at once', async () => {
    const header = 'claude-code-20250219,prompt-caching-scope-2026-01-05,interleaved-thinking-2025-05-14'
    const body = vertexAnthropicBody({ max_tokens: 10, messages }, [])
    const refused = await call('claude-haiku-4-5@20251001', 'generate', body, { 'anthropic-beta': header })
    expect(refused.status).toBe(400)
    const error = (await refused.json()) as { error: { type: string; message: string } }
    expect(error.error.type).toBe('invalid_request_error')
    const names = vertexRefusedBetas(error.error.message)
    expect(names).toEqual(['prompt-caching-scope-2026-01-05'])
    const retry = header.split(',').filter((f) => !names.includes(f)).join(',')
    expect((await call('claude-haiku-4-5@20251001', 'generate', body, { 'anthropic-beta': retry })).status).toBe(200)
    const filtered = vertexAnthropicBetas(header, [])!
    expect((await call('claude-haiku-4-5@20251001', 'generate', body, { 'anthropic-beta': filtered })).status).toBe(200)
  })

  test('the fake refuses what Vertex refuses: model in the body, no anthropic_version, Anthropic\'s dated id, diagnostics', async () => {
    const ask = async (model: string, body: Record<string, unknown>) => {
      const res = await call(model, 'generate', body)
      return { status: res.status, message: ((await res.json()) as any).error.message as string }
    }
    expect(await ask('claude-haiku-4-5@20251001', { model: 'x', anthropic_version: 'vertex-2023-10-16', max_tokens: 5, messages }))
      .toEqual({ status: 400, message: 'model: Extra inputs are not permitted' })
    expect(await ask('claude-haiku-4-5@20251001', { max_tokens: 5, messages })).toEqual({ status: 400, message: 'anthropic_version: Field required' })
    expect(await ask('claude-haiku-4-5@20251001', { anthropic_version: 'vertex-2023-10-16', max_tokens: 5, messages, diagnostics: null }))
      .toEqual({ status: 400, message: 'diagnostics: Extra inputs are not permitted' })
    expect(await ask('claude-haiku-4-5@20251001', { anthropic_version: 'vertex-2023-10-16', messages })).toEqual({ status: 400, message: 'max_tokens: Field required' })
    // vertexUrl would have renamed it: build the path by hand
    const token = await tokens.accessTokenFor(sa.json, fetch)
    const dated = await fetch(`${vertex.url}/v1/projects/tollgate-proj/locations/global/publishers/anthropic/models/claude-haiku-4-5-20251001:rawPredict`, {
      method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(vertexAnthropicBody({ max_tokens: 5, messages }, [])),
    })
    expect(dated.status).toBe(404)
    expect(((await dated.json()) as any).error.status).toBe('NOT_FOUND')
  })
})

describe('the fake Vertex checks the bearer token and the project', () => {
  const path = '/v1/projects/tollgate-proj/locations/global/publishers/google/models/gemini-2.5-flash:generateContent'
  const post = (authorization?: string, p = path) =>
    fetch(vertex.url + p, { method: 'POST', headers: authorization ? { authorization } : {}, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) })

  test('none, a made-up one, an expired one: 401 UNAUTHENTICATED; a valid one for another project: 403', async () => {
    for (const auth of [undefined, 'Bearer ya29.made-up']) {
      const res = await post(auth)
      expect(res.status).toBe(401)
      expect(((await res.json()) as any).error.status).toBe('UNAUTHENTICATED')
    }
    const local = createTokenSource({ now })
    const token = await local.accessTokenFor(sa.json, fetch)
    expect((await post(`Bearer ${token}`)).status).toBe(200)
    const other = await google.createAccount({ projectId: 'someone-else' })
    const theirs = await local.accessTokenFor(other.json, fetch)
    const denied = await post(`Bearer ${theirs}`)
    expect(denied.status).toBe(403)
    expect(((await denied.json()) as any).error.message).toStartWith("Permission 'aiplatform.endpoints.predict' denied on resource")
    clock += 3600_000
    expect((await post(`Bearer ${token}`)).status).toBe(401)
    // the token source saw it coming: a new token, accepted
    const fresh = await local.accessTokenFor(sa.json, fetch)
    expect(fresh).not.toBe(token)
    expect((await post(`Bearer ${fresh}`)).status).toBe(200)
  })

  test('a location that does not serve the model, and a Claude model under google: 404', async () => {
    const token = `Bearer ${await tokens.accessTokenFor(sa.json, fetch)}`
    expect((await post(token, path.replace('/global/', '/asia-south1/'))).status).toBe(404)
    expect((await post(token, path.replace('gemini-2.5-flash', 'claude-haiku-4-5@20251001'))).status).toBe(404)
  })
})

describe('Google\'s own client (@google/genai, Vertex mode) against the fakes', () => {
  const client = async () => {
    const token = await tokens.accessTokenFor(sa.json, fetch)
    const authClient = { getRequestHeaders: async () => new Headers({ authorization: `Bearer ${token}` }) }
    return new GoogleGenAI({
      vertexai: true, project: 'tollgate-proj', location: 'us-central1',
      httpOptions: { baseUrl: vertex.url, apiVersion: 'v1' }, googleAuthOptions: { authClient: authClient as never },
    })
  }

  test('generateContent and the SSE stream', async () => {
    const ai = await client()
    vertex.setBehavior({ text: 'Bonjour tout le monde' })
    expect((await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })).text).toBe('Bonjour tout le monde')
    let streamed = ''
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' })) streamed += chunk.text ?? ''
    expect(streamed).toBe('Bonjour tout le monde')
    // the paths the client chose are the ones vertexUrl builds
    const ours = (operation: VertexOperation) => vertexUrl({ project: 'tollgate-proj', region: 'us-central1', model: 'gemini-2.5-flash', operation, baseUrl: vertex.url })
    expect(vertex.url + vertex.requests[0]!.path).toBe(ours('generate'))
    expect(`${vertex.url}${vertex.requests[1]!.path}?alt=${vertex.requests[1]!.query.alt}`).toBe(ours('stream'))
  })

  test('countTokens and embeddings by predict (a batch) and embedContent (one)', async () => {
    const ai = await client()
    vertex.setBehavior({ usage: { input: 42 } })
    expect((await ai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'hello there' })).totalTokens).toBe(42)
    const batch = await ai.models.embedContent({ model: 'text-embedding-005', contents: ['first', 'second'], config: { outputDimensionality: 16 } })
    expect(batch.embeddings!.map((e) => e.values!.length)).toEqual([16, 16])
    expect(vertex.requests[1]!.action).toBe('predict')
    const one = await ai.models.embedContent({ model: 'gemini-embedding-2', contents: 'first', config: { outputDimensionality: 16 } })
    expect(one.embeddings![0]!.values).toEqual(batch.embeddings![0]!.values!)
    expect(vertex.requests[2]!.action).toBe('embedContent')
    // gemini-embedding-001 takes one text a call
    await expect(ai.models.embedContent({ model: 'gemini-embedding-001', contents: ['a', 'b'] })).rejects.toThrow('supports only 1 input text per request')
  })
})
