/**
 * Tencent Hunyuan (type 23): ChatCompletions of Tencent Cloud API 3.0, every call signed with TC3-HMAC-SHA256. The
 * signer against a known vector (computed apart, with Python's hmac and hashlib, from Tencent's documented steps);
 * a fake that verifies the signature as Tencent does (its own HMAC chain over the body it got) and answers in
 * Hunyuan's shapes, streamed and not, with `Response.Error` on a 200 for a bad signature.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash, createHmac } from 'node:crypto'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { account, logsWhen, startMeteredEnv } from '../metering/env'
import type { RelayEnv } from '../helpers/relay-env'
import { tc3Authorization } from '../../src/providers/signing/tc3'

const SECRET_ID = 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE'
const SECRET_KEY = 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE'
const received: { headers: Headers; body: any }[] = []

/** Tencent's check, written apart from the signer: the HMAC chain over what arrived. */
function verified(request: Request, text: string): boolean {
  const auth = request.headers.get('authorization') ?? ''
  const match = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/hunyuan\/tc3_request, SignedHeaders=content-type;host;x-tc-action, Signature=([0-9a-f]{64})$/.exec(auth)
  if (!match || match[1] !== SECRET_ID) return false
  const timestamp = request.headers.get('x-tc-timestamp') ?? ''
  if (new Date(Number(timestamp) * 1000).toISOString().slice(0, 10) !== match[2]) return false
  const hex = (s: string) => createHash('sha256').update(s).digest('hex')
  const canonical = `POST\n/\n\ncontent-type:application/json\nhost:${new URL(request.url).host}\nx-tc-action:${(request.headers.get('x-tc-action') ?? '').toLowerCase()}\n\ncontent-type;host;x-tc-action\n${hex(text)}`
  const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${match[2]}/hunyuan/tc3_request\n${hex(canonical)}`
  let key: Buffer = createHmac('sha256', `TC3${SECRET_KEY}`).update(match[2]!).digest()
  key = createHmac('sha256', key).update('hunyuan').digest()
  key = createHmac('sha256', key).update('tc3_request').digest()
  return createHmac('sha256', key).update(toSign).digest('hex') === match[3]
}

const fake = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const text = await request.text()
    if (new URL(request.url).pathname !== '/' || request.headers.get('x-tc-action') !== 'ChatCompletions' || request.headers.get('x-tc-version') !== '2023-09-01') {
      return Response.json({ Response: { Error: { Code: 'InvalidAction', Message: 'no such action' }, RequestId: 'r0' } })
    }
    if (!verified(request, text)) return Response.json({ Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'The provided credentials could not be validated.' }, RequestId: 'r1' } })
    const body = JSON.parse(text)
    received.push({ headers: request.headers, body })
    const usage = { PromptTokens: 9, CompletionTokens: 5, TotalTokens: 14 }
    if (!body.Stream) return Response.json({ Response: { Id: 'hy-1', Created: 1, Choices: [{ FinishReason: 'stop', Message: { Role: 'assistant', Content: '你好，我是混元' } }], Usage: usage, RequestId: 'r2' } })
    const chunk = (content: string, finish: string, tokens: number) => `data: ${JSON.stringify({ Id: 'hy-2', Created: 1, Choices: [{ Delta: { Role: 'assistant', Content: content }, FinishReason: finish }], Usage: { ...usage, CompletionTokens: tokens } })}\n\n`
    return new Response(chunk('你好，', '', 2) + chunk('我是混元', '', 4) + chunk('', 'stop', 5), { headers: { 'content-type': 'text/event-stream' } })
  },
})

let env: RelayEnv
let key: string
let userId: number
beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('ChannelPrivateNetworksAllowed', true)
  await env.app.deps.options.set('ModelRatio', { 'hunyuan-lite': 1, 'hunyuan-bad': 1 })
  await env.addChannel({ type: 23, name: 'hunyuan', baseUrl: `http://127.0.0.1:${fake.port}`, keyText: `1250000000|${SECRET_ID}|${SECRET_KEY}`, models: 'hunyuan-lite', group: 'default' })
  await env.addChannel({ type: 23, name: 'hunyuan-wrong', baseUrl: `http://127.0.0.1:${fake.port}`, keyText: `1250000000|${SECRET_ID}|wrong-secret`, models: 'hunyuan-bad', group: 'default' })
  const payer = await account(env, 10_000_000)
  key = payer.key
  userId = payer.user.id
})
afterAll(async () => {
  await env.stop()
  fake.stop(true)
})

test('TC3-HMAC-SHA256 against a known vector', () => {
  const authorization = tc3Authorization({
    secretId: SECRET_ID,
    secretKey: SECRET_KEY,
    service: 'hunyuan',
    host: 'hunyuan.tencentcloudapi.com',
    action: 'ChatCompletions',
    timestamp: 1551113065,
    body: '{"Model":"hunyuan-lite","Messages":[{"Role":"user","Content":"你好"}],"Stream":false}',
  })
  expect(authorization).toBe(
    `TC3-HMAC-SHA256 Credential=${SECRET_ID}/2019-02-25/hunyuan/tc3_request, SignedHeaders=content-type;host;x-tc-action, Signature=05113b1a6adb01c6174203c10e9a58e4c7ffed3473e20a89a679a64afca3adc5`,
  )
})

describe('Hunyuan as an upstream', () => {
  test('an OpenAI chat client, not streamed: Hunyuan\'s PascalCase body, signed; the answer and usage back, billed', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
    const res = await openai.chat.completions.create({ model: 'hunyuan-lite', temperature: 0.5, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: '你好' }] })
    expect(res.choices[0]!.message.content).toBe('你好，我是混元')
    expect(res.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 5 })
    expect(received.at(-1)!.body).toEqual({ Model: 'hunyuan-lite', Messages: [{ Role: 'system', Content: 'Be brief.' }, { Role: 'user', Content: '你好' }], Stream: false, Temperature: 0.5 })
    const [row] = await logsWhen(env, userId, 1)
    expect(row).toMatchObject({ promptTokens: 9, completionTokens: 5 })
  })

  test('streamed to an OpenAI client and to an Anthropic client: the deltas, the last chunk\'s usage billed', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
    const stream = await openai.chat.completions.create({ model: 'hunyuan-lite', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: '你好' }] })
    let text = ''
    let usage: OpenAI.CompletionUsage | undefined
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? ''
      usage = chunk.usage ?? usage
    }
    expect(text).toBe('你好，我是混元')
    expect(usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 5 })
    expect(received.at(-1)!.body.Stream).toBe(true)
    const anthropic = new Anthropic({ apiKey: key, baseURL: env.app.url, maxRetries: 0 })
    const final = await anthropic.messages.stream({ model: 'hunyuan-lite', max_tokens: 64, messages: [{ role: 'user', content: '你好' }] }).finalMessage()
    expect(final.content).toMatchObject([{ type: 'text', text: '你好，我是混元' }])
    expect(final.usage).toMatchObject({ input_tokens: 9, output_tokens: 5 })
    const once = await anthropic.messages.create({ model: 'hunyuan-lite', max_tokens: 64, messages: [{ role: 'user', content: '你好' }] })
    expect(once.content).toMatchObject([{ type: 'text', text: '你好，我是混元' }])
    const rows = await logsWhen(env, userId, 4)
    expect(rows.slice(1).map((r) => [r.promptTokens, r.completionTokens])).toEqual([[9, 5], [9, 5], [9, 5]])
  })

  test('a refused signature, answered with 200 and Response.Error, is an error to the client and is not charged', async () => {
    const before = (await logsWhen(env, userId, 4)).length
    const res = await env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'hunyuan-bad', messages: [{ role: 'user', content: 'x' }] }) })
    expect(res.status).toBeGreaterThanOrEqual(400)
    const body = JSON.stringify(await res.json())
    expect(body).toContain('AuthFailure.SignatureFailure')
    expect(body).not.toContain('wrong-secret')
    const rows = await logsWhen(env, userId, before + 1)
    expect(rows.slice(before).map((r) => r.quota)).toEqual([0])
  })

  test('a key that is not AppId|SecretId|SecretKey is refused on save', async () => {
    const { login, as } = await import('../helpers/accounts')
    const { call } = await import('../helpers/test-app')
    const root = await login(env.app)
    const res = await call(env.app, 'POST', '/api/channel/', { type: 23, name: 'bad', key: 'sk-nope', models: 'hunyuan-lite' }, as(root))
    expect(res.status).toBe(400)
    expect(res.body.data.param).toBe('key')
  })
})
