import Anthropic from '@anthropic-ai/sdk'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'

/** The small parts of the public surface: root probes, ?beta=true, count_tokens. */
let env: RelayEnv
let anthropic: Anthropic

beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5' })
  anthropic = new Anthropic({ apiKey: env.key, baseURL: env.app.url, maxRetries: 0 })
})
afterAll(() => env.stop())

describe('root probes', () => {
  test('HEAD / → 200 without auth, no body', async () => {
    const res = await env.app.fetch('/', { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
  })

  test('GET / → 200 without auth', async () => {
    const res = await env.app.fetch('/')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('Tollgate')
  })
})

describe('POST /v1/messages?beta=true (Claude Code)', () => {
  test('works like /v1/messages, and the query does not go upstream', async () => {
    env.upstream.reset()
    env.upstream.setBehavior({ text: 'beta ok' })
    const res = await env.app.fetch('/v1/messages?beta=true', {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'claude-code-20250219' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(res.status).toBe(200)
    const body = (await res.json()) as any
    expect(body.content[0]).toMatchObject({ type: 'text', text: 'beta ok' })
    const sent = env.upstream.requests[0]!
    expect(sent.path).toBe('/v1/messages')
    expect(sent.headers['anthropic-beta']).toBe('claude-code-20250219')
  })

  test('the Anthropic SDK beta client (which calls ?beta=true) streams through it', async () => {
    env.upstream.reset()
    env.upstream.setBehavior({ text: ['be', 'ta'] })
    const message = await anthropic.beta.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }).finalMessage()
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'beta' })
    expect(env.upstream.requests[0]!.path).toBe('/v1/messages')
  })
})

describe('POST /v1/messages/count_tokens', () => {
  async function count(body: Record<string, unknown>): Promise<number> {
    const res = await env.app.fetch('/v1/messages/count_tokens', {
      method: 'POST',
      headers: { 'x-api-key': env.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', ...body }),
    })
    expect(res.status).toBe(200)
    const json = (await res.json()) as { input_tokens: number }
    expect(Object.keys(json)).toEqual(['input_tokens'])
    return json.input_tokens
  }
  const say = (text: string) => ({ messages: [{ role: 'user', content: text }] })

  test('a real tokenizer: "hello world" ×100 is about 200 tokens, not characters / 4', async () => {
    const text = Array(100).fill('hello world').join(' ')
    const n = await count(say(text))
    expect(n).toBeGreaterThan(190)
    expect(n).toBeLessThan(230)
    expect(Math.abs(n - text.length / 4)).toBeGreaterThan(50)
  })

  test('grows with the text, the system prompt and the tools', async () => {
    const small = await count(say('hello'))
    expect(small).toBeGreaterThan(0)
    const bigger = await count(say('hello '.repeat(50)))
    expect(bigger).toBeGreaterThan(small + 40)
    const withSystem = await count({ ...say('hello'), system: 'You are a careful assistant who answers briefly.' })
    expect(withSystem).toBeGreaterThan(small + 5)
    const withTool = await count({ ...say('hello'), tools: [{ name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }] })
    expect(withTool).toBeGreaterThan(small + 5)
  })

  test('the Anthropic SDK countTokens reads it; nothing goes upstream', async () => {
    env.upstream.reset()
    const result = await anthropic.messages.countTokens({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'How many tokens is this?' }] })
    expect(result.input_tokens).toBeGreaterThan(5)
    expect(env.upstream.requests).toHaveLength(0)
  })

  test('needs a key', async () => {
    const res = await env.app.fetch('/v1/messages/count_tokens', {
      method: 'POST',
      headers: { 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', ...say('hi') }),
    })
    expect(res.status).toBe(401)
    expect(((await res.json()) as any).error.type).toBe('authentication_error')
  })
})
