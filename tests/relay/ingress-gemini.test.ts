import { GoogleGenAI } from '@google/genai'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { startRelayEnv, UPSTREAM_KEY, type RelayEnv } from '../helpers/relay-env'

let env: RelayEnv
let genai: GoogleGenAI

const contents = [{ role: 'user', parts: [{ text: 'hello' }] }]
const post = (path: string, init: { headers?: Record<string, string>; body?: unknown } = {}) =>
  env.app.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...init.headers }, body: JSON.stringify(init.body ?? { contents }) })

beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 24, models: 'gemini-2.5-flash' })
  await env.addChannel({ type: 1, models: 'gpt-4.1-mini' })
  genai = new GoogleGenAI({ apiKey: env.key, httpOptions: { baseUrl: env.app.url } })
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
})

describe('Gemini ingress: generateContent', () => {
  test('the SDK (x-goog-api-key) reaches a Gemini upstream by passthrough; model and stream come from the path', async () => {
    env.upstream.setBehavior({ text: 'Hi there', usage: { input: 12, output: 7 } })
    const res = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hello' })
    expect(res.text).toBe('Hi there')
    expect(res.usageMetadata?.promptTokenCount).toBe(12)
    const sent = env.upstream.requests[0]!
    expect(sent.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent')
    expect(sent.headers['x-goog-api-key']).toBe(UPSTREAM_KEY)
    expect(env.outcomes[0]?.model).toBe('gemini-2.5-flash')
  })

  test('the SDK stream (alt=sse) through a conversion to an OpenAI upstream', async () => {
    env.upstream.setBehavior({ text: ['Hel', 'lo', '!'], usage: { input: 5, output: 3 } })
    let text = ''
    for await (const chunk of await genai.models.generateContentStream({ model: 'gpt-4.1-mini', contents: 'hi' })) text += chunk.text ?? ''
    expect(text).toBe('Hello!')
    expect(env.upstream.requests[0]!.path).toBe('/v1/chat/completions')
    expect(env.upstream.requests[0]!.json.stream).toBe(true)
  })

  test('?key= and Bearer authenticate too; /v1/models/{model}:generateContent is served as well', async () => {
    expect((await post(`/v1beta/models/gemini-2.5-flash:generateContent?key=${env.key}`)).status).toBe(200)
    expect((await post('/v1beta/models/gemini-2.5-flash:generateContent', { headers: { authorization: `Bearer ${env.key}` } })).status).toBe(200)
    const v1 = await post('/v1/models/gemini-2.5-flash:generateContent', { headers: { 'x-goog-api-key': env.key } })
    expect(v1.status).toBe(200)
    expect((await v1.json()).candidates[0].content.parts[0].text).toBeString()
  })

  test('streamGenerateContent without alt=sse answers one JSON array of chunks', async () => {
    env.upstream.setBehavior({ text: ['a', 'b', 'c'] })
    const res = await post('/v1beta/models/gpt-4.1-mini:streamGenerateContent', { headers: { 'x-goog-api-key': env.key } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/json')
    const chunks = (await res.json()) as { candidates: { content: { parts: { text?: string }[] }; finishReason?: string }[] }[]
    expect(Array.isArray(chunks)).toBe(true)
    expect(chunks.map((c) => c.candidates[0]!.content.parts.map((p) => p.text ?? '').join('')).join('')).toBe('abc')
    expect(chunks.at(-1)!.candidates[0]!.finishReason).toBe('STOP')
  })

  test('errors are Gemini-shaped: no key, wrong key, unknown model, bad body, unknown method', async () => {
    const noKey = await post('/v1beta/models/gemini-2.5-flash:generateContent')
    expect(noKey.status).toBe(401)
    expect((await noKey.json()).error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' })
    const badKey = await post('/v1beta/models/gemini-2.5-flash:generateContent', { headers: { 'x-goog-api-key': 'sk-nope' } })
    expect((await badKey.json()).error.code).toBe(401)
    const unknown = await post('/v1beta/models/nope-1.0:generateContent', { headers: { 'x-goog-api-key': env.key } })
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error).toMatchObject({ code: 404, status: 'NOT_FOUND' })
    const bad = await post('/v1beta/models/gemini-2.5-flash:generateContent', { headers: { 'x-goog-api-key': env.key }, body: { contents: 'x' } })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' })
    const method = await post('/v1beta/models/gemini-2.5-flash:predict', { headers: { 'x-goog-api-key': env.key } })
    expect(method.status).toBe(404)
    expect((await method.json()).error.status).toBe('NOT_FOUND')
    expect(env.upstream.requests).toHaveLength(0)
  })

  test('an upstream error keeps its status, in Gemini shape', async () => {
    env.upstream.setBehavior({ error: { status: 400, message: 'bad thing' } })
    const res = await post('/v1beta/models/gpt-4.1-mini:generateContent', { headers: { 'x-goog-api-key': env.key } })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' })
    expect(body.error.message).toContain('bad thing')
  })
})

describe('Gemini ingress: models', () => {
  test('GET /v1beta/models lists the token models in Gemini shape; the SDK (which lists on /v1/models with x-goog-api-key) too', async () => {
    const res = await env.app.fetch('/v1beta/models', { headers: { 'x-goog-api-key': env.key } })
    const body = await res.json()
    expect(body.models.map((m: { name: string }) => m.name)).toEqual(['models/gemini-2.5-flash', 'models/gpt-4.1-mini'])
    expect(body.models[0]).toMatchObject({ displayName: 'gemini-2.5-flash', supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'] })
    const names: string[] = []
    for await (const model of await genai.models.list()) names.push(model.name!)
    expect(names).toEqual(['models/gemini-2.5-flash', 'models/gpt-4.1-mini'])
  })

  test('GET /v1beta/models/{model}: known, with models/ prefix, unknown; GET /v1/models/:model still the OpenAI shape', async () => {
    const model = await genai.models.get({ model: 'gemini-2.5-flash' })
    expect(model.name).toBe('models/gemini-2.5-flash')
    const unknown = await env.app.fetch('/v1beta/models/nope', { headers: { 'x-goog-api-key': env.key } })
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error.status).toBe('NOT_FOUND')
    const openai = await env.app.fetch('/v1/models/gpt-4.1-mini', { headers: { authorization: `Bearer ${env.key}` } })
    expect(await openai.json()).toMatchObject({ id: 'gpt-4.1-mini', object: 'model' })
    const openaiList = await (await env.app.fetch('/v1/models', { headers: { authorization: `Bearer ${env.key}` } })).json()
    expect(openaiList.object).toBe('list')
    const geminiUnknown = await env.app.fetch('/v1/models/nope', { headers: { 'x-goog-api-key': env.key } })
    expect((await geminiUnknown.json()).error).toMatchObject({ code: 404, status: 'NOT_FOUND' })
    expect((await env.app.fetch('/v1/models/models%2Fgpt-4.1-mini', { headers: { 'x-goog-api-key': env.key } })).status).toBe(200)
  })
})
