/** The fakes speak the real wire formats: the official SDKs parse them, streaming and not. */
import Anthropic from '@anthropic-ai/sdk'
import { ApiError, GoogleGenAI } from '@google/genai'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { startFakeUpstream, type FakeUpstream, type Scenario } from './index'

const KEY = 'sk-fake-key-1234567890'
let up: FakeUpstream
beforeAll(async () => {
  up = await startFakeUpstream({ keys: [KEY] })
})
afterAll(() => up.stop())

const last = () => up.requests.at(-1)!
const weather: Scenario['toolCalls'] = [
  { id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris', unit: 'c' }, fragments: 4 },
  { id: 'call_w2', name: 'get_time', arguments: { tz: 'Europe/Paris' } },
]

describe('anthropic via @anthropic-ai/sdk', () => {
  const client = () => new Anthropic({ apiKey: KEY, baseURL: up.url, maxRetries: 0 })
  const params = {
    model: 'claude-haiku-4-5', max_tokens: 2048, thinking: { type: 'enabled' as const, budget_tokens: 1024 },
    messages: [{ role: 'user' as const, content: 'Weather in Paris?' }],
  }

  test('stream: thinking with signature, text, parallel tool calls, usage', async () => {
    up.setBehavior({
      reasoning: 'Let me check.', signature: 'sig-abc', text: 'Checking both.', toolCalls: weather,
      usage: { input: 11, cacheRead: 100, cacheWrite: 50, output: 40 },
    })
    const stream = client().messages.stream(params)
    const deltas: string[] = []
    stream.on('text', (t) => deltas.push(t))
    const msg = await stream.finalMessage()
    expect(deltas).toEqual(['Check', 'ing b', 'oth.'])
    expect(msg.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use'])
    expect(msg.content[0]).toMatchObject({ thinking: 'Let me check.', signature: 'sig-abc' })
    expect(msg.content[2]).toMatchObject({ id: 'call_w1', name: 'get_weather', input: { city: 'Paris', unit: 'c' } })
    expect(msg.content[3]).toMatchObject({ name: 'get_time', input: { tz: 'Europe/Paris' } })
    expect(msg.stop_reason).toBe('tool_use')
    expect(msg.usage).toMatchObject({ input_tokens: 11, cache_read_input_tokens: 100, cache_creation_input_tokens: 50, output_tokens: 40 })
    expect(last().path).toBe('/v1/messages')
    expect(last().headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(last().json.stream).toBe(true)
  })

  test('non-stream create, count_tokens, models', async () => {
    up.setBehavior({ text: 'Hi!', usage: { input: 3, output: 2 }, finish: 'length' })
    const msg = await client().messages.create(params)
    expect(msg.content).toMatchObject([{ type: 'text', text: 'Hi!' }])
    expect(msg.stop_reason).toBe('max_tokens')
    const count = await client().messages.countTokens({ model: 'claude-haiku-4-5', messages: params.messages })
    expect(count.input_tokens).toBe(3)
    const models = await client().models.list()
    expect(models.data[0]).toMatchObject({ type: 'model', id: 'gpt-4o-mini' })
  })

  test('529 surfaces as the SDK typed error; wrong key as AuthenticationError', async () => {
    up.setBehavior({ error: { status: 529 } })
    const err = await client().messages.create(params).catch((e) => e)
    expect(err).toBeInstanceOf(Anthropic.APIError)
    expect(err.status).toBe(529)
    expect(err.error).toMatchObject({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })
    const bad = new Anthropic({ apiKey: 'nope', baseURL: up.url, maxRetries: 0 })
    expect(await bad.messages.create(params).catch((e) => e)).toBeInstanceOf(Anthropic.AuthenticationError)
  })

  test('in-stream error event surfaces as an APIError', async () => {
    up.setBehavior({ streamError: { type: 'overloaded_error' } })
    const err = await client().messages.stream(params).finalMessage().catch((e) => e)
    expect(err).toBeInstanceOf(Anthropic.APIError)
    expect(String(err.message)).toContain('Overloaded')
  })
})

describe('openai chat via openai', () => {
  const client = () => new OpenAI({ apiKey: KEY, baseURL: `${up.url}/v1`, maxRetries: 0 })
  const params = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Weather?' }] }

  test('stream with include_usage: text, reasoning_content, parallel tool calls', async () => {
    up.setBehavior({ text: 'On it.', reasoning: 'hmm', toolCalls: weather, usage: { input: 5, cacheRead: 64, output: 30, reasoning: 12 } })
    const stream = client().chat.completions.stream({ ...params, stream_options: { include_usage: true } })
    const reasoning: string[] = []
    stream.on('chunk', (c) => reasoning.push((c.choices[0]?.delta as any)?.reasoning_content ?? ''))
    const completion = await stream.finalChatCompletion()
    const choice = completion.choices[0]!
    expect(choice.message.content).toBe('On it.')
    expect(reasoning.join('')).toBe('hmm') // DeepSeek-style field; the SDK does not accumulate it
    expect(choice.message.tool_calls?.map((c) => c.type === 'function' && [c.id, c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      ['call_w1', 'get_weather', { city: 'Paris', unit: 'c' }],
      ['call_w2', 'get_time', { tz: 'Europe/Paris' }],
    ])
    expect(choice.finish_reason).toBe('tool_calls')
    expect(completion.usage).toMatchObject({
      prompt_tokens: 69, completion_tokens: 30, total_tokens: 99,
      prompt_tokens_details: { cached_tokens: 64 }, completion_tokens_details: { reasoning_tokens: 12 },
    })
    expect(last().headers['authorization']).toBe(`Bearer ${KEY}`)
  })

  test('non-stream create and models list', async () => {
    up.setBehavior({ text: 'Plain.' })
    const completion = await client().chat.completions.create(params)
    expect(completion.choices[0]!.message.content).toBe('Plain.')
    expect(completion.choices[0]!.finish_reason).toBe('stop')
    const models = await client().models.list()
    expect(models.data.map((m) => m.id)).toContain('gpt-4o-mini')
  })

  test('429 is RateLimitError; in-stream error chunk is an APIError', async () => {
    up.setBehavior({ error: { status: 429, headers: { 'retry-after': '0' } } })
    const err = await client().chat.completions.create(params).catch((e) => e)
    expect(err).toBeInstanceOf(OpenAI.RateLimitError)
    expect(err.code).toBe('rate_limit_exceeded')
    up.setBehavior({ streamError: { message: 'boom' } })
    const streamErr = await client().chat.completions.stream(params).finalChatCompletion().catch((e) => e)
    expect(streamErr).toBeInstanceOf(OpenAI.APIError)
    expect(String(streamErr.message)).toContain('boom')
  })

  test('Azure deployment path is an alias with api-key auth', async () => {
    up.setBehavior({ text: 'Azure says hi' })
    const res = await fetch(`${up.url}/openai/deployments/my-gpt/chat/completions?api-version=2024-10-21`, {
      method: 'POST', headers: { 'api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(res.status).toBe(200)
    expect((await res.json()).choices[0].message.content).toBe('Azure says hi')
    expect(last().model).toBe('my-gpt')
  })
})

describe('openai responses via openai', () => {
  const client = () => new OpenAI({ apiKey: KEY, baseURL: `${up.url}/v1`, maxRetries: 0 })
  const params = {
    model: 'gpt-5', input: 'Weather?', reasoning: { effort: 'low' as const, summary: 'auto' as const },
    include: ['reasoning.encrypted_content' as const], store: false,
  }

  test('stream: reasoning summary + encrypted_content, text, function calls, usage', async () => {
    up.setBehavior({ reasoning: 'Think.', signature: 'enc-123', text: 'Calling.', toolCalls: weather, usage: { input: 10, cacheRead: 20, output: 15, reasoning: 9 } })
    const stream = client().responses.stream(params)
    const deltas: string[] = []
    stream.on('response.output_text.delta', (e) => deltas.push(e.delta))
    const response = await stream.finalResponse()
    expect(deltas.join('')).toBe('Calling.')
    expect(response.output_text).toBe('Calling.')
    const [reasoning, , call1, call2] = response.output
    expect(reasoning).toMatchObject({ type: 'reasoning', encrypted_content: 'enc-123', summary: [{ type: 'summary_text', text: 'Think.' }] })
    expect(call1).toMatchObject({ type: 'function_call', call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' })
    expect(call2).toMatchObject({ type: 'function_call', call_id: 'call_w2', name: 'get_time' })
    expect(response.status).toBe('completed')
    expect(response.usage).toMatchObject({
      input_tokens: 30, input_tokens_details: { cached_tokens: 20 }, output_tokens: 15, output_tokens_details: { reasoning_tokens: 9 }, total_tokens: 45,
    })
  })

  test('non-stream create; max tokens → incomplete', async () => {
    up.setBehavior({ text: 'Cut sho', finish: 'length' })
    const response = await client().responses.create({ model: 'gpt-5', input: 'hi' })
    expect(response.output_text).toBe('Cut sho')
    expect(response.status).toBe('incomplete')
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' })
  })

  test('500 is InternalServerError; wrong key is AuthenticationError', async () => {
    up.setBehavior({ error: { status: 500 } })
    expect(await client().responses.create({ model: 'gpt-5', input: 'hi' }).catch((e) => e)).toBeInstanceOf(OpenAI.InternalServerError)
    const bad = new OpenAI({ apiKey: 'sk-wrong-key-000000', baseURL: `${up.url}/v1`, maxRetries: 0 })
    const err = await bad.responses.create({ model: 'gpt-5', input: 'hi' }).catch((e) => e)
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError)
    expect(err.code).toBe('invalid_api_key')
  })
})

describe('gemini via @google/genai', () => {
  // the SDK defaults to /v1/…; the v1beta paths are served the same way
  const client = (apiKey = KEY, apiVersion?: string) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: up.url, apiVersion } })
  const config = { thinkingConfig: { includeThoughts: true } }

  test('generateContentStream: thoughts, text with thoughtSignature, function calls, usage', async () => {
    up.setBehavior({ reasoning: 'Pondering.', signature: 'c2lnbmF0dXJl', text: 'Here.', toolCalls: weather, usage: { input: 8, cacheRead: 4, output: 25, reasoning: 10 } })
    const stream = await client(KEY, 'v1beta').models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Weather?', config })
    const chunks = []
    for await (const chunk of stream) chunks.push(chunk)
    const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? [])
    expect(parts.filter((p) => p.thought).map((p) => p.text).join('')).toBe('Pondering.')
    expect(parts.filter((p) => !p.thought && p.text).map((p) => p.text).join('')).toBe('Here.')
    expect(parts.find((p) => p.thoughtSignature)?.thoughtSignature).toBe('c2lnbmF0dXJl')
    expect(chunks.at(-1)!.functionCalls).toEqual([
      { id: 'call_w1', name: 'get_weather', args: { city: 'Paris', unit: 'c' } },
      { id: 'call_w2', name: 'get_time', args: { tz: 'Europe/Paris' } },
    ])
    expect(chunks.at(-1)!.candidates?.[0]?.finishReason).toBe('STOP' as any)
    expect(chunks.at(-1)!.usageMetadata).toMatchObject({ promptTokenCount: 12, cachedContentTokenCount: 4, candidatesTokenCount: 15, thoughtsTokenCount: 10, totalTokenCount: 37 })
    expect(last().path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent')
    expect(last().query['alt']).toBe('sse')
    expect(last().headers['x-goog-api-key']).toBe(KEY)
  })

  test('generateContent non-stream and models list', async () => {
    up.setBehavior({ text: 'Plain gemini.', reasoning: 'hidden' })
    const res = await client().models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })
    expect(res.text).toBe('Plain gemini.')
    expect(res.candidates?.[0]?.content?.parts?.some((p) => p.thought)).toBe(false) // no includeThoughts
    for (const version of ['v1', 'v1beta']) {
      const pager = await client(KEY, version).models.list()
      expect(pager.page.map((m) => m.name)).toContain('models/gemini-2.5-flash')
    }
  })

  test('429 and a wrong key surface as ApiError', async () => {
    up.setBehavior({ error: { status: 429 } })
    const err = await client().models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' }).catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.status).toBe(429)
    const bad = await client('wrong').models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' }).catch((e) => e)
    expect(bad).toBeInstanceOf(ApiError)
    expect(bad.status).toBe(400)
    expect(bad.message).toContain('API_KEY_INVALID')
  })
})
