/**
 * Dify (type 37): an app's chat API as an upstream. Every client protocol reaches it by conversion: the conversation
 * goes as one `query` in new-api's framing, the blocking answer and the streaming events come back in the client's
 * protocol, `message_end`'s usage is billed, Dify's own events (workflow, node, ping) are skipped, and what Dify
 * cannot take (function tools) is a 400 before anything is sent. The fake follows Dify's documented API.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { account, logsWhen, startMeteredEnv } from '../metering/env'
import type { RelayEnv } from '../helpers/relay-env'

const APP_KEY = 'app-dify0123456789abcdef'
const received: any[] = []

function sse(events: Record<string, unknown>[]): Response {
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')
  return new Response(text, { headers: { 'content-type': 'text/event-stream' } })
}

const fake = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const url = new URL(request.url)
    if (request.headers.get('authorization') !== `Bearer ${APP_KEY}`) return Response.json({ code: 'unauthorized', message: 'Access token is invalid', status: 401 }, { status: 401 })
    if (request.method !== 'POST' || url.pathname !== '/v1/chat-messages') return Response.json({ code: 'not_found', message: 'not found', status: 404 }, { status: 404 })
    const body = (await request.json()) as any
    received.push(body)
    if (typeof body.query !== 'string' || !body.query || typeof body.user !== 'string' || !body.user) return Response.json({ code: 'invalid_param', message: 'query and user are required', status: 400 }, { status: 400 })
    const usage = { prompt_tokens: 21, completion_tokens: 5, total_tokens: 26, currency: 'USD' }
    if (body.response_mode === 'blocking') {
      return Response.json({ event: 'message', task_id: 't1', id: 'm1', message_id: 'm1', conversation_id: 'c1', mode: 'chat', answer: 'Hello from Dify', metadata: { usage }, created_at: 1_750_000_000 })
    }
    if (body.query.includes('[error]')) return sse([{ event: 'message', message_id: 'm2', answer: 'Par' }, { event: 'error', message_id: 'm2', status: 500, code: 'completion_request_error', message: 'the app model failed' }])
    return sse([
      { event: 'workflow_started', task_id: 't2', workflow_run_id: 'w1', data: { id: 'w1', workflow_id: 'wf' } },
      { event: 'node_started', task_id: 't2', data: { node_type: 'llm' } },
      { event: 'message', message_id: 'm3', conversation_id: 'c1', answer: 'Hello ' },
      { event: 'ping' },
      { event: 'message', message_id: 'm3', conversation_id: 'c1', answer: 'from Dify' },
      { event: 'workflow_finished', task_id: 't2', data: { status: 'succeeded' } },
      { event: 'message_end', message_id: 'm3', conversation_id: 'c1', metadata: { usage } },
    ])
  },
})

let env: RelayEnv
let key: string
let userId: number
beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('ChannelPrivateNetworksAllowed', true)
  await env.app.deps.options.set('ModelRatio', { 'my-dify-app': 1 })
  await env.addChannel({ type: 37, name: 'dify', baseUrl: `http://127.0.0.1:${fake.port}`, keyText: APP_KEY, models: 'my-dify-app', group: 'default' })
  const payer = await account(env, 10_000_000)
  key = payer.key
  userId = payer.user.id
})
afterAll(async () => {
  await env.stop()
  fake.stop(true)
})

describe('Dify as an upstream', () => {
  test("an OpenAI client's conversation goes as one query in new-api's framing; the answer and usage come back", async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
    const res = await openai.chat.completions.create({
      model: 'my-dify-app',
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }, { role: 'user', content: [{ type: 'text', text: 'Who are you?' }, { type: 'image_url', image_url: { url: 'https://img.example/a.png' } }] }],
      user: 'end-user-7',
      temperature: 0.2,
    })
    expect(res.choices[0]!.message.content).toBe('Hello from Dify')
    expect(res.usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 5 })
    expect(received.at(-1)).toEqual({
      inputs: {},
      query: 'SYSTEM: \nBe brief.\nUSER: \nHi\nASSISTANT: \nHello!\nUSER: \nWho are you?\n',
      response_mode: 'blocking',
      user: 'end-user-7',
      auto_generate_name: false,
      files: [{ type: 'image', transfer_mode: 'remote_url', url: 'https://img.example/a.png' }],
    })
    const [row] = await logsWhen(env, userId, 1)
    expect(row).toMatchObject({ modelName: 'my-dify-app', promptTokens: 21, completionTokens: 5 })
  })

  test("a Claude client streams: Dify's text events become Anthropic's, its own events are skipped, usage from message_end", async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: env.app.url, maxRetries: 0 })
    const stream = anthropic.messages.stream({ model: 'my-dify-app', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] })
    const final = await stream.finalMessage()
    expect(final.content.map((block) => (block.type === 'text' ? block.text : block.type))).toEqual(['Hello from Dify'])
    expect(final.usage).toMatchObject({ input_tokens: 21, output_tokens: 5 })
    expect(received.at(-1).response_mode).toBe('streaming')
    const rows = await logsWhen(env, userId, 2)
    expect(rows.at(-1)).toMatchObject({ promptTokens: 21, completionTokens: 5 })
  })

  test("Dify's error event mid-stream reaches the client as an error", async () => {
    const res = await env.app.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'my-dify-app', stream: true, messages: [{ role: 'user', content: 'x [error]' }] }),
    })
    const text = await res.text()
    expect(text).toContain('Par')
    expect(text).toContain('the app model failed')
  })

  test('function tools are a 400 naming tools, and nothing is sent', async () => {
    const before = received.length
    const res = await env.app.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'my-dify-app', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] }),
    })
    expect(res.status).toBe(400)
    expect(JSON.stringify(await res.json())).toContain('tools')
    expect(received.length).toBe(before)
  })
})
