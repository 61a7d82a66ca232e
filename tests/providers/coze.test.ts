/**
 * Coze (type 49): a bot's chat (API v3) as an upstream. The bot id comes from the channel's `other` as `bot_id`;
 * the conversation goes as `additional_messages`; Coze is always asked to stream, and a non-stream client gets the
 * stream folded into one answer; the usage of `conversation.chat.completed` is billed; a failed chat reaches the
 * client as an error. The fake follows Coze's documented v3 chat API and its event names.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { account, logsWhen, startMeteredEnv } from '../metering/env'
import type { RelayEnv } from '../helpers/relay-env'

const PAT = 'pat_coze0123456789abcdef'
const BOT = '7350000000000000001'
const received: any[] = []

const event = (name: string, data: unknown) => `event:${name}\ndata:${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`

const fake = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    if (request.headers.get('authorization') !== `Bearer ${PAT}`) return Response.json({ code: 4100, msg: 'authentication is invalid' }, { status: 401 })
    if (new URL(request.url).pathname !== '/v3/chat') return Response.json({ code: 4000, msg: 'not found' }, { status: 404 })
    const body = (await request.json()) as any
    received.push(body)
    if (body.bot_id !== BOT) return Response.json({ code: 4200, msg: 'bot not found' })
    const chat = { id: 'chat-1', conversation_id: 'conv-1', bot_id: BOT }
    const msg = (content: string, type = 'answer') => ({ ...chat, id: 'msg-1', chat_id: 'chat-1', role: 'assistant', type, content, content_type: 'text' })
    const failed = body.additional_messages.at(-1).content.includes('[fail]')
    const text = [
      event('conversation.chat.created', { ...chat, status: 'created' }),
      event('conversation.chat.in_progress', { ...chat, status: 'in_progress' }),
      event('conversation.message.delta', msg('Hello ')),
      ...(failed
        ? [event('conversation.chat.failed', { ...chat, status: 'failed', last_error: { code: 5000, msg: 'the bot failed' } })]
        : [
            event('conversation.message.delta', msg('from Coze')),
            event('conversation.message.completed', msg('Hello from Coze')),
            event('conversation.message.completed', msg('Ask me more?', 'follow_up')),
            event('conversation.chat.completed', { ...chat, status: 'completed', usage: { token_count: 40, output_count: 6, input_count: 34 } }),
          ]),
      event('done', '"[DONE]"'),
    ].join('')
    return new Response(text, { headers: { 'content-type': 'text/event-stream' } })
  },
})

let env: RelayEnv
let key: string
let userId: number
beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('ChannelPrivateNetworksAllowed', true)
  await env.app.deps.options.set('ModelRatio', { 'support-bot': 1 })
  await env.addChannel({ type: 49, name: 'coze', baseUrl: `http://127.0.0.1:${fake.port}`, keyText: PAT, models: 'support-bot', group: 'default', other: BOT })
  const payer = await account(env, 10_000_000)
  key = payer.key
  userId = payer.user.id
})
afterAll(async () => {
  await env.stop()
  fake.stop(true)
})

describe('Coze as an upstream', () => {
  test('a non-stream OpenAI client: the bot id from other, the turns as additional_messages, the stream folded into one answer, usage billed', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
    const res = await openai.chat.completions.create({
      model: 'support-bot',
      messages: [{ role: 'system', content: 'ignored' }, { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }, { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://img.example/b.png' } }] }],
      user: 'end-user-9',
    })
    expect(res.choices[0]!.message.content).toBe('Hello from Coze')
    expect(res.usage).toMatchObject({ prompt_tokens: 34, completion_tokens: 6 })
    expect(received.at(-1)).toEqual({
      bot_id: BOT,
      user_id: 'end-user-9',
      stream: true,
      auto_save_history: true,
      additional_messages: [
        { role: 'user', type: 'question', content: 'Hi', content_type: 'text' },
        { role: 'assistant', type: 'answer', content: 'Hello!', content_type: 'text' },
        { role: 'user', type: 'question', content: JSON.stringify([{ type: 'text', text: 'What is this?' }, { type: 'image', file_url: 'https://img.example/b.png' }]), content_type: 'object_string' },
      ],
    })
    const [row] = await logsWhen(env, userId, 1)
    expect(row).toMatchObject({ modelName: 'support-bot', promptTokens: 34, completionTokens: 6 })
  })

  test('a streaming Claude client gets the answer text only (no follow-up suggestions) and the usage', async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: env.app.url, maxRetries: 0 })
    const final = await anthropic.messages.stream({ model: 'support-bot', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }).finalMessage()
    expect(final.content.map((block) => (block.type === 'text' ? block.text : block.type))).toEqual(['Hello from Coze'])
    expect(final.usage).toMatchObject({ input_tokens: 34, output_tokens: 6 })
    const rows = await logsWhen(env, userId, 2)
    expect(rows.at(-1)).toMatchObject({ promptTokens: 34, completionTokens: 6 })
  })

  test('a failed chat: the non-stream client gets an error and is not charged; the streaming one sees the error', async () => {
    const before = (await logsWhen(env, userId, 2)).length
    const res = await env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'support-bot', messages: [{ role: 'user', content: 'x [fail]' }] }) })
    expect(res.status).toBeGreaterThanOrEqual(500)
    expect(JSON.stringify(await res.json())).toContain('the bot failed')
    const streamed = await env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'support-bot', stream: true, messages: [{ role: 'user', content: 'y [fail]' }] }) })
    const text = await streamed.text()
    expect(text).toContain('Hello ')
    expect(text).toContain('the bot failed')
    const rows = await logsWhen(env, userId, before + 2)
    expect(rows.slice(before).map((r) => r.quota)).toEqual([0, expect.any(Number)])
  })
})
