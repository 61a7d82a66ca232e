import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { startRelayEnv, UPSTREAM_KEY, type RelayEnv } from '../helpers/relay-env'

let env: RelayEnv
let openai: OpenAI
let anthropic: Anthropic

beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 1, models: 'gpt-4o' })
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5' })
  openai = new OpenAI({ apiKey: env.key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
  anthropic = new Anthropic({ apiKey: env.key, baseURL: env.app.url, maxRetries: 0 })
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
})

describe('chat completions → OpenAI upstream (passthrough)', () => {
  test('non-stream: the answer and usage come back; the upstream got the client bytes and its own key', async () => {
    env.upstream.setBehavior({ text: 'Hi there', usage: { input: 12, output: 7 } })
    const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] })
    expect(completion.choices[0]!.message.content).toBe('Hi there')
    expect(completion.usage?.prompt_tokens).toBe(12)
    const sent = env.upstream.requests[0]!
    expect(sent.path).toBe('/v1/chat/completions')
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`)
    // no cap from the client: sent with the model's maximum output, in OpenAI's field (tests/metering/output-cap.test.ts)
    expect(JSON.parse(sent.body)).toEqual({ max_completion_tokens: 16_384, model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] })
    expect(env.outcomes[0]?.usage?.input.noCache).toBe(12)
  })

  test('raw bytes: a body with odd spacing goes upstream byte for byte', async () => {
    const raw = '{"model":"gpt-4o",  "messages":[{"role":"user","content":"héllo"}],"x_custom":{"a":1},"max_tokens" :  50}'
    const res = await fetch(`${env.app.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' }, body: raw })
    expect(res.status).toBe(200)
    expect(env.upstream.requests[0]!.body).toBe(raw)
  })

  test('stream: the SDK helper assembles the answer; usage is tapped but not sent unasked', async () => {
    env.upstream.setBehavior({ text: ['Hel', 'lo', '!'], usage: { input: 5, output: 3 } })
    const stream = openai.chat.completions.stream({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
    const chunks: unknown[] = []
    stream.on('chunk', (chunk) => chunks.push(chunk))
    const final = await stream.finalChatCompletion()
    expect(final.choices[0]!.message.content).toBe('Hello!')
    expect(chunks.some((c) => (c as { usage?: unknown }).usage)).toBe(false)
    expect(env.upstream.requests[0]!.json.stream_options).toEqual({ include_usage: true })
    expect(env.outcomes[0]?.usage?.output.text).toBe(3)
  })

  test('stream with include_usage: the usage chunk reaches the client and the bytes are the upstream bytes', async () => {
    env.upstream.setBehavior({ text: ['a', 'b'], usage: { input: 4, output: 2 } })
    const res = await fetch(`${env.app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}` },
      body: JSON.stringify({ model: 'gpt-4o', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'x' }] }),
    })
    const text = await res.text()
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    expect(text).toContain('"usage"')
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true)
  })

  test('tool round trip', async () => {
    env.upstream.setBehavior({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] })
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
    const first = await openai.chat.completions.stream({ model: 'gpt-4o', tools, messages: [{ role: 'user', content: 'weather?' }] }).finalChatCompletion()
    const call = first.choices[0]!.message.tool_calls![0]!
    expect(call.type === 'function' && call.function.name).toBe('get_weather')
    expect(first.choices[0]!.finish_reason).toBe('tool_calls')
    env.upstream.setBehavior({ text: 'Sunny' })
    const second = await openai.chat.completions.create({
      model: 'gpt-4o',
      tools,
      messages: [{ role: 'user', content: 'weather?' }, first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '{"sky":"clear"}' }],
    })
    expect(second.choices[0]!.message.content).toBe('Sunny')
  })
})

describe('messages → Anthropic upstream (passthrough)', () => {
  test('non-stream with x-api-key; the upstream sees its own key and the client anthropic-version', async () => {
    env.upstream.setBehavior({ text: 'Bonjour', usage: { input: 9, cacheRead: 4, output: 2 } })
    const message = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'salut' }] })
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Bonjour' })
    const sent = env.upstream.requests[0]!
    expect(sent.headers['x-api-key']).toBe(UPSTREAM_KEY)
    expect(sent.headers['anthropic-version']).toBeTruthy()
    expect(env.outcomes[0]?.usage?.input).toEqual({ noCache: 9, cacheRead: 4, cacheWrite: 0 })
  })

  test('stream: finalMessage with thinking and a tool call', async () => {
    env.upstream.setBehavior({ reasoning: 'let me think', signature: 'sig-123', toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] })
    const message = await anthropic.messages
      .stream({ model: 'claude-sonnet-4-5', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'go' }] })
      .finalMessage()
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'tool_use'])
    expect(message.stop_reason).toBe('tool_use')
    expect(message.content[0]).toMatchObject({ thinking: 'let me think', signature: 'sig-123' })
  })

  /** Send a history through the SDK; what the upstream received. */
  const sendHistory = async (messages: Anthropic.MessageParam[]) => {
    env.upstream.setBehavior({ text: 'ok' })
    await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 64, messages })
    return env.upstream.requests[0]!.json
  }

  test('a thinking block sent back with an empty signature is dropped before the upstream sees it', async () => {
    const sent = await sendHistory([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: '' }, { type: 'text', text: 'b' }] },
      { role: 'user', content: 'c' },
    ])
    expect(sent.messages[1].content).toEqual([{ type: 'text', text: 'b' }])
  })

  test('a thinking block with no signature field is dropped too; a signed one stays', async () => {
    const sent = await sendHistory([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'no field' } as never, { type: 'text', text: 'b' }] },
      { role: 'user', content: 'c' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'signed', signature: 'sig-1' }] },
      { role: 'user', content: 'd' },
    ])
    expect(sent.messages[1].content).toEqual([{ type: 'text', text: 'b' }])
    expect(sent.messages[3].content).toEqual([{ type: 'thinking', thinking: 'signed', signature: 'sig-1' }])
  })
})
