import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import OpenAI from 'openai'
import { startFakeBedrock, type FakeBedrock } from '../helpers/fake-upstreams/bedrock'
import { startFakeGoogleToken, type FakeGoogleToken } from '../helpers/fake-upstreams/google-token'
import { startFakeVertex, type FakeVertex } from '../helpers/fake-upstreams/vertex'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'

const claudeCode = JSON.parse(readFileSync(join(import.meta.dir, '../fixtures/clients/claude-code-thinking-echo.json'), 'utf8'))

let env: RelayEnv
let bedrock: FakeBedrock
let google: FakeGoogleToken
let vertex: FakeVertex
beforeAll(async () => {
  env = await startRelayEnv()
  bedrock = await startFakeBedrock({ region: 'eu-west-1', credentials: { AKIDFAKEBEDROCK: 'bedrock-secret-key' } })
  google = await startFakeGoogleToken()
  vertex = await startFakeVertex({ tokens: google, locations: ['us-east5', 'global'] })
  const account = await google.createAccount({ projectId: 'proj-1' })
  await env.app.deps.routing.channels.create([
    {
      name: 'bedrock', type: 33, baseUrl: bedrock.url, keyText: 'AKIDFAKEBEDROCK|bedrock-secret-key|eu-west-1', group: 'default',
      models: 'claude-sonnet-4-5,us.amazon.nova-pro-v1:0', modelMapping: JSON.stringify({ 'claude-sonnet-4-5': 'eu.anthropic.claude-sonnet-4-5-20250929-v1:0' }),
    },
    { name: 'vertex', type: 41, baseUrl: vertex.url, keyText: account.json, other: JSON.stringify({ default: 'us-east5' }), group: 'default', models: 'claude-opus-4-1-20250805,gemini-2.5-pro' },
  ])
})
afterAll(async () => {
  await env.stop()
  await Promise.all([bedrock.stop(), vertex.stop(), google.stop()])
})

const messages = (body: unknown, headers: Record<string, string> = {}) =>
  env.app.fetch('/v1/messages', { method: 'POST', headers: { 'x-api-key': env.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

describe('33 AWS Bedrock', () => {
  test("Claude Code's turn goes through invoke, signed, in the body Bedrock accepts, thinking signature intact", async () => {
    bedrock.setBehavior({ text: 'Done.', reasoning: 'considering', usage: { input: 40, output: 9 } })
    const body = { ...claudeCode.body, model: 'claude-sonnet-4-5', stream: false }
    const res = await messages(body, { 'anthropic-beta': 'interleaved-thinking-2025-05-14,claude-code-20250219' })
    expect(res.status).toBe(200)
    const answer = (await res.json()) as any
    expect(answer.content.map((c: any) => c.type)).toEqual(['thinking', 'text'])
    expect(answer.content[1].text).toBe('Done.')
    const sent = bedrock.requests.at(-1)!
    expect(sent.auth).toBe('sigv4')
    expect(sent.operation).toBe('invoke')
    expect(sent.model).toBe('eu.anthropic.claude-sonnet-4-5-20250929-v1:0')
    expect(sent.json.anthropic_version).toBe('bedrock-2023-05-31')
    expect(sent.json.model).toBeUndefined()
    expect(sent.json.anthropic_beta).toEqual(['interleaved-thinking-2025-05-14'])
    // the signed thinking block Claude Code echoed is sent back unchanged
    const echoed = claudeCode.body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).find((b: any) => b.type === 'thinking')
    const forwarded = sent.json.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).find((b: any) => b.type === 'thinking')
    expect(forwarded).toEqual(echoed)
  })

  test('a streamed Claude turn arrives as Anthropic SSE from the event stream', async () => {
    bedrock.setBehavior({ text: 'Streaming hello', reasoning: 'hmm', usage: { input: 12, output: 5 } })
    const res = await messages({ model: 'claude-sonnet-4-5', max_tokens: 2000, stream: true, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'hi' }] })
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toContain('event: message_start')
    expect(text).toContain('"thinking_delta"')
    expect(text).toContain('"signature_delta"')
    expect(text).toContain('event: message_stop')
    expect(bedrock.requests.at(-1)!.operation).toBe('invoke-with-response-stream')
  })

  test('an OpenAI client streams from a Nova model over ConverseStream, usage reported', async () => {
    bedrock.setBehavior({ text: 'Nova says hi', usage: { input: 8, output: 4 } })
    const openai = new OpenAI({ apiKey: env.key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
    const stream = await openai.chat.completions.create({ model: 'us.amazon.nova-pro-v1:0', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] })
    let text = ''
    let usage: any
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? ''
      if (chunk.usage) usage = chunk.usage
    }
    expect(text).toBe('Nova says hi')
    expect(usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 4 })
    const sent = bedrock.requests.at(-1)!
    expect(sent.operation).toBe('converse-stream')
    expect(sent.json.messages[0]).toEqual({ role: 'user', content: [{ text: 'hi' }] })
  })

  test('a wrong secret is refused by Bedrock; the client hears the upstream failed, the key is not repeated', async () => {
    const [bad] = await env.app.deps.routing.channels.create([{ name: 'bedrock-bad', type: 33, baseUrl: bedrock.url, keyText: 'AKIDFAKEBEDROCK|wrong-secret-value|eu-west-1', group: 'default', models: 'us.amazon.nova-lite-v1:0' }])
    const res = await env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'us.amazon.nova-lite-v1:0', messages: [{ role: 'user', content: 'x' }] }) })
    expect(res.status).toBeGreaterThanOrEqual(400)
    const text = await res.text()
    expect(text).toContain('signature')
    expect(text).not.toContain('wrong-secret-value')
    expect(bad!.id).toBeGreaterThan(0)
  })
})

describe('41 Google Vertex AI', () => {
  test('Claude through rawPredict with a minted token: the body without model, Vertex\'s version, the region from other', async () => {
    vertex.setBehavior({ text: 'Vertex Claude', usage: { input: 5, output: 2 } })
    const res = await messages({ model: 'claude-opus-4-1-20250805', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] })
    expect(res.status).toBe(200)
    expect(((await res.json()) as any).content[0].text).toBe('Vertex Claude')
    const sent = vertex.requests.at(-1)!
    expect(sent).toMatchObject({ project: 'proj-1', location: 'us-east5', publisher: 'anthropic', vertexModel: 'claude-opus-4-1@20250805', action: 'rawPredict' })
    expect(sent.json.model).toBeUndefined()
    expect(sent.json.anthropic_version).toBe('vertex-2023-10-16')
    expect(google.exchanges.length).toBe(1)
  })

  test('Gemini through generateContent (an OpenAI client, converted), the token reused', async () => {
    vertex.setBehavior({ text: 'Vertex Gemini', usage: { input: 3, output: 2 } })
    const openai = new OpenAI({ apiKey: env.key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
    const res = await openai.chat.completions.create({ model: 'gemini-2.5-pro', messages: [{ role: 'user', content: 'hi' }] })
    expect(res.choices[0]!.message.content).toBe('Vertex Gemini')
    expect(vertex.requests.at(-1)).toMatchObject({ publisher: 'google', vertexModel: 'gemini-2.5-pro', action: 'generateContent', location: 'us-east5' })
    expect(google.exchanges.length).toBe(1)
  })

  test('the channel test goes through the same token and URL', async () => {
    const channel = env.app.deps.routing.channels.all().find((c) => c.name === 'vertex')!
    const { testKey } = await import('../../src/relay/routing/channel-test')
    const result = await testKey(channel, channel.keys[0]!, 'gemini-2.5-pro', env.app.deps.outbound.fetch)
    expect(result).toMatchObject({ ok: true, status: 200 })
  })
})
