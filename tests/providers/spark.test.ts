/**
 * iFlytek Spark (type 18) as an upstream over its WebSocket API, against a fake that checks the signed handshake on
 * its own and answers in frames. The model's version picks the path and the domain; the app id goes in the frame;
 * OpenAI and Anthropic clients, streamed and not, get the answer and are billed the last frame's usage; a refused
 * frame, a refused handshake and a broken answer fail uncharged with the key masked; oversized frames and a slow
 * answer are cut off.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { account, logsWhen, startMeteredEnv } from '../metering/env'
import type { RelayEnv } from '../helpers/relay-env'
import { checkKeys } from '../../src/modules/channels/input'
import { providerFor } from '../../src/providers/registry'
import { SPARK_USAGE, startFakeSpark } from '../helpers/fake-upstreams/spark'

const CREDS = { appId: 'a1b2c3d4', apiSecret: 'MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi', apiKey: 'addd2272b6d8b7c8abdd79531420ca3b' }
const KEY = `${CREDS.appId}|${CREDS.apiSecret}|${CREDS.apiKey}`
const fake = startFakeSpark(CREDS)

let env: RelayEnv
let key: string
let userId: number
let channelId: number
let badChannelId: number
const post = (body: unknown) => env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })

beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('ChannelPrivateNetworksAllowed', true)
  await env.app.deps.options.set('ChannelFailureThreshold', 1000) // the failures below are asked for
  await env.app.deps.options.set('ModelRatio', { 'SparkDesk-v3.5': 1, 'SparkDesk': 1, 'spark-bad-key': 1 })
  channelId = await env.addChannel({ type: 18, name: 'spark', baseUrl: `http://127.0.0.1:${fake.port}`, keyText: KEY, models: 'SparkDesk-v3.5,SparkDesk', group: 'default', other: 'v4.0' })
  const payer = await account(env, 10_000_000)
  key = payer.key
  userId = payer.user.id
})
afterAll(async () => {
  await env.stop()
  fake.stop()
})

describe('Spark as an upstream', () => {
  test('a non-stream OpenAI client: signed handshake at the model\'s version, the frame as Spark wants it, frames collected, usage billed', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
    const res = await openai.chat.completions.create({ model: 'SparkDesk-v3.5', temperature: 0.5, max_tokens: 100, messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }, { role: 'user', content: 'Who are you?' }] })
    expect(res.choices[0]!.message.content).toBe('Hello from Spark')
    expect(res.usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 5 })
    expect(fake.handshakes.at(-1)).toEqual({ path: '/v3.5/chat', ok: true })
    expect(fake.received.at(-1).frame).toEqual({
      header: { app_id: CREDS.appId },
      parameter: { chat: { domain: 'generalv3.5', temperature: 0.5, max_tokens: 100 } },
      payload: { message: { text: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }, { role: 'user', content: 'Who are you?' }] } },
    })
    const [row] = await logsWhen(env, userId, 1)
    expect(row).toMatchObject({ modelName: 'SparkDesk-v3.5', promptTokens: SPARK_USAGE.prompt_tokens, completionTokens: SPARK_USAGE.completion_tokens })
    expect(row!.quota).toBeGreaterThan(0)
  })

  test('a streaming OpenAI client gets the frames as chunks with the usage; a name without a version takes the channel\'s other', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
    const stream = await openai.chat.completions.create({ model: 'SparkDesk', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Hi' }] })
    let text = ''
    let usage: OpenAI.CompletionUsage | undefined
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? ''
      usage = chunk.usage ?? usage
    }
    expect(text).toBe('Hello from Spark')
    expect(usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 5 })
    expect(fake.handshakes.at(-1)).toEqual({ path: '/v4.0/chat', ok: true })
    expect(fake.received.at(-1).frame.parameter.chat.domain).toBe('4.0Ultra')
    const rows = await logsWhen(env, userId, 2)
    expect(rows.at(-1)).toMatchObject({ modelName: 'SparkDesk', promptTokens: 21, completionTokens: 5 })
  })

  test('Anthropic Messages clients, streamed and not', async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: env.app.url, maxRetries: 0 })
    const plain = await anthropic.messages.create({ model: 'SparkDesk-v3.5', max_tokens: 64, system: 'Be brief', messages: [{ role: 'user', content: 'Hi' }] })
    expect(plain.content).toEqual([{ type: 'text', text: 'Hello from Spark', citations: null } as any].map((b) => expect.objectContaining({ type: 'text', text: b.text })))
    expect(plain.usage).toMatchObject({ input_tokens: 21, output_tokens: 5 })
    const final = await anthropic.messages.stream({ model: 'SparkDesk-v3.5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }).finalMessage()
    expect(final.content.map((b) => (b.type === 'text' ? b.text : b.type))).toEqual(['Hello from Spark'])
    expect(final.usage).toMatchObject({ input_tokens: 21, output_tokens: 5 })
    expect(fake.received.at(-1).frame.payload.message.text).toEqual([{ role: 'user', content: 'Hi' }])
    const rows = await logsWhen(env, userId, 4)
    expect(rows.slice(-2).map((r) => [r.promptTokens, r.completionTokens])).toEqual([[21, 5], [21, 5]])
  })

  test('a refused frame (code 10013) and a quota frame (11201) fail uncharged; the stream client gets an error, not a 200', async () => {
    const before = (await logsWhen(env, userId, 4)).length
    const refused = await post({ model: 'SparkDesk-v3.5', messages: [{ role: 'user', content: 'x [refuse]' }] })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(await refused.json())).toContain('input content audit failed')
    const quota = await post({ model: 'SparkDesk-v3.5', stream: true, messages: [{ role: 'user', content: 'x [quota]' }] })
    expect(quota.status).toBeGreaterThanOrEqual(400)
    expect(JSON.stringify(await quota.json())).toContain('licc limit')
    const rows = await logsWhen(env, userId, before + 2)
    expect(rows.slice(before).map((r) => r.quota)).toEqual([0, 0])
  })

  test('a break mid-answer: the non-stream client gets an error uncharged; the streaming one sees the text then the error', async () => {
    const before = (await logsWhen(env, userId, 6)).length
    const broken = await post({ model: 'SparkDesk-v3.5', messages: [{ role: 'user', content: 'x [break]' }] })
    expect(broken.status).toBeGreaterThanOrEqual(400)
    expect(JSON.stringify(await broken.json())).toContain('request parameter error')
    const dropped = await post({ model: 'SparkDesk-v3.5', messages: [{ role: 'user', content: 'x [drop]' }] })
    expect(dropped.status).toBeGreaterThanOrEqual(500)
    expect(JSON.stringify(await dropped.json())).toContain('closed the connection before the answer ended')
    const streamed = await post({ model: 'SparkDesk-v3.5', stream: true, messages: [{ role: 'user', content: 'y [break]' }] })
    const text = await streamed.text()
    expect(text).toContain('Hello ')
    expect(text).toContain('request parameter error')
    const rows = await logsWhen(env, userId, before + 3)
    expect(rows.slice(before, before + 2).map((r) => r.quota)).toEqual([0, 0])
  })

  test('an oversized frame ends the call; a refused handshake fails with the key masked', async () => {
    const big = await post({ model: 'SparkDesk-v3.5', messages: [{ role: 'user', content: 'x [big]' }] })
    expect(big.status).toBeGreaterThanOrEqual(500)
    expect(JSON.stringify(await big.json())).toContain('at most 1048576')
    const wrong = `${CREDS.appId}|wrongsecretwrongsecret12|${CREDS.apiKey}`
    badChannelId = await env.addChannel({ type: 18, name: 'spark-bad', baseUrl: `http://127.0.0.1:${fake.port}`, keyText: wrong, models: 'spark-bad-key', group: 'default', other: 'v3.5' })
    const refused = await post({ model: 'spark-bad-key', messages: [{ role: 'user', content: 'Hi' }] })
    expect(refused.status).toBeGreaterThanOrEqual(400)
    const body = JSON.stringify(await refused.json())
    expect(body).toContain('401')
    expect(body).not.toContain('wrongsecretwrongsecret12')
    expect(body).not.toContain(CREDS.apiKey)
    expect(body).not.toContain('authorization=') // the signed query carries the API key in base64
    expect(body).toContain(`http://127.0.0.1:${fake.port}/v3.5/chat:`)
    expect(fake.handshakes.at(-1)).toEqual({ path: '/v3.5/chat', ok: false })
  })

  test('a slow answer is cut off at the deadline and the socket closed', async () => {
    await env.app.deps.options.set('RelayTimeoutSeconds', 1)
    try {
      const slow = await post({ model: 'SparkDesk-v3.5', messages: [{ role: 'user', content: 'x [slow]' }] })
      expect(slow.status).toBeGreaterThanOrEqual(500)
      expect(JSON.stringify(await slow.json())).toContain('timed out')
    } finally {
      await env.app.deps.options.set('RelayTimeoutSeconds', 300)
    }
    for (let i = 0; fake.open > 0 && i < 100; i++) await Bun.sleep(20)
    expect(fake.open).toBe(0)
  })

  test('the channel test speaks the WebSocket too: a good key passes, a refused signature fails with its status', async () => {
    await env.app.deps.routing.channels.ready
    const before = fake.received.length
    const good = await env.app.deps.routing.checkChannel(env.app.deps.routing.channels.get(channelId)!)
    expect(good.result).toMatchObject({ ok: true, status: 200, model: 'SparkDesk-v3.5' })
    expect(fake.received.slice(before).map((r) => [r.path, r.frame.parameter.chat])).toEqual([['/v3.5/chat', { domain: 'generalv3.5', max_tokens: 1 }]])
    const bad = await env.app.deps.routing.checkChannel(env.app.deps.routing.channels.get(badChannelId)!)
    expect(bad.result).toMatchObject({ ok: false, status: 401 })
    expect(bad.result.message).not.toContain('authorization=')
  })

  test('a channel key not in Spark\'s format is refused on save (a 400 naming key), without quoting it', async () => {
    const error = await checkKeys(providerFor(18)!, `${KEY}\njustonesecretvalue`).catch((e: Error & { status?: number; field?: string }) => e)
    expect(error).toMatchObject({ status: 400, message: expect.stringContaining('key 2 of 2: a Spark key is APPID|APISecret|APIKey') })
    expect(`${(error as Error).message}`).not.toContain('justonesecretvalue')
    expect(await checkKeys(providerFor(18)!, KEY)).toBeUndefined()
  })
})
