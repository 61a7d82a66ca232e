import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { fakeSpeechChunks, speechStreams } from '../helpers/fake-upstreams/audio'
import { account, logsOf, settled, userRow } from '../metering/env'
import { OP_KEY, startOperationsEnv, type OperationsEnv } from './env'

// tts-1 US$15 per million characters = ModelRatio 7.5: quota per character
const TTS1 = 7.5

let o: OperationsEnv
beforeAll(async () => {
  o = await startOperationsEnv()
  await o.channel(1, 'tts-1,gpt-4o-mini-tts')
  await o.channel(3, 'tts-1-hd', { other: '2025-03-01-preview' })
})
afterAll(() => o.stop())

async function payer(balance = 10_000_000) {
  const { user, key } = await account(o.env, balance)
  return { user, key, client: new OpenAI({ apiKey: key, baseURL: `${o.env.app.url}/v1`, maxRetries: 0 }) }
}

async function lastRow(userId: number) {
  const rows = await logsOf(o.env, userId)
  return { row: rows.at(-1)!, other: JSON.parse(rows.at(-1)!.other) }
}

const post = (key: string, body: unknown, init: RequestInit = {}) =>
  o.env.app.fetch('/v1/audio/speech', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body), ...init })

const concat = (chunks: Uint8Array[]) => Buffer.concat(chunks)

/** Waits until `check` holds (the gateway settles a stream after its last byte). */
async function until(check: () => boolean, timeoutMs = 3000) {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached')
    await Bun.sleep(5)
  }
}

describe('POST /v1/audio/speech', () => {
  test('the SDK reads the audio bytes with the upstream content type; the body goes on with only the model; billed per character', async () => {
    const { user, client } = await payer()
    const input = 'Twenty characters!!!'
    const count = o.env.outcomes.length
    const res = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input, response_format: 'opus', speed: 1.25 })
    expect(res.headers.get('content-type')).toBe('audio/opus')
    expect(Buffer.from(await res.arrayBuffer())).toEqual(concat(fakeSpeechChunks(input)))
    expect(o.up.requests.at(-1)!.path).toBe('/v1/audio/speech')
    expect(o.up.requests.at(-1)!.json).toEqual({ model: 'tts-1', voice: 'alloy', input, response_format: 'opus', speed: 1.25 })
    await settled(o.env, count + 1)
    const { row } = await lastRow(user.id)
    expect(row).toMatchObject({ modelName: 'tts-1', promptTokens: 20, completionTokens: 0, quota: 20 * TTS1, isStream: true, type: 2 })
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000 - 20 * TTS1)
  })

  test('characters are counted as characters, not UTF-16 units or bytes', async () => {
    const { user, key } = await payer()
    const count = o.env.outcomes.length
    const res = await post(key, { model: 'tts-1', voice: 'nova', input: 'héllo 👋 wörld' })
    expect(res.status).toBe(200)
    await res.arrayBuffer()
    await settled(o.env, count + 1)
    expect((await lastRow(user.id)).row.promptTokens).toBe(13)
  })

  test('the bytes stream as they arrive: a client that goes away mid-stream is billed and the upstream is aborted', async () => {
    const { user, key } = await payer()
    const input = 'a long story [slow]'
    const count = o.env.outcomes.length
    const cancelled = speechStreams.cancelled
    const abort = new AbortController()
    const res = await post(key, { model: 'tts-1', voice: 'echo', input }, { signal: abort.signal })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('audio/mpeg')
    const reader = res.body!.getReader()
    // the upstream never ends: these bytes can only have come through as they were sent
    const received: Uint8Array[] = []
    while (Buffer.concat(received).length < 3 * fakeSpeechChunks(input)[0]!.length) received.push((await reader.read()).value!)
    expect(Buffer.concat(received).toString()).toStartWith(`<chunk 0 of ${input}><chunk 1 of ${input}>`)
    abort.abort()
    await until(() => speechStreams.cancelled > cancelled)
    await settled(o.env, count + 1)
    const { row, other } = await lastRow(user.id)
    expect(row).toMatchObject({ type: 2, promptTokens: [...input].length, quota: Math.round([...input].length * TTS1) })
    expect(other.aborted).toBe(true)
  })

  test('stream_format sse (gpt-4o-mini-tts) passes the events through; tts-1 refuses it by name', async () => {
    const { key } = await payer()
    const res = await post(key, { model: 'gpt-4o-mini-tts', voice: 'coral', input: 'hi there', instructions: 'cheerful', stream_format: 'sse' })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const text = await res.text()
    expect(text).toContain('"type":"speech.audio.delta"')
    expect(text).toContain('"type":"speech.audio.done"')
    expect(o.up.requests.at(-1)!.json.instructions).toBe('cheerful')
    const bad = await post(key, { model: 'tts-1', voice: 'coral', input: 'hi', stream_format: 'sse' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as any).error.param).toBe('stream_format')
  })

  test('Azure: the deployment path, api-version and api-key', async () => {
    const { client } = await payer()
    const res = await client.audio.speech.create({ model: 'tts-1-hd', voice: 'onyx', input: 'from azure', response_format: 'wav' })
    expect(res.headers.get('content-type')).toBe('audio/wav')
    expect(Buffer.from(await res.arrayBuffer())).toEqual(concat(fakeSpeechChunks('from azure')))
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/openai/deployments/tts-1-hd/audio/speech?api-version=2025-03-01-preview')
    expect(sent.headers['api-key']).toBe(OP_KEY)
  })

  test('bad input is a 400 naming the field; nothing is sent or charged', async () => {
    const { user, key } = await payer()
    const before = o.up.requests.length
    for (const [body, param] of [
      [{ model: 'tts-1', input: 'x' }, 'voice'],
      [{ model: 'tts-1', input: 'x', voice: '' }, 'voice'],
      [{ model: 'tts-1', voice: 'alloy' }, 'input'],
      [{ model: 'tts-1', voice: 'alloy', input: 'x'.repeat(4097) }, 'input'],
      [{ voice: 'alloy', input: 'x' }, 'model'],
      [{ model: 'tts-1', voice: 'alloy', input: 'x', speed: 5 }, 'speed'],
      [{ model: 'tts-1', voice: 'alloy', input: 'x', speed: '1' }, 'speed'],
      [{ model: 'tts-1', voice: 'alloy', input: 'x', response_format: 'ogg' }, 'response_format'],
    ] as const) {
      const res = await post(key, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(((await res.json()) as any).error.param, JSON.stringify(body)).toBe(param)
    }
    expect(o.up.requests.length).toBe(before)
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000)
  })

  test('a failing channel fails over before the first byte; an upstream 400 comes back masked', async () => {
    await o.channel(1, 'tts-1-failover', { priority: 5 })
    await o.channel(1, 'tts-1-failover', { priority: -1 })
    await o.env.app.deps.options.set('ModelRatio', { 'tts-1-failover': 7.5 })
    const { key } = await payer()
    o.up.failNext('/v1/audio/speech', 429, { error: { message: 'rate limited' } })
    const before = o.up.requests.length
    const res = await post(key, { model: 'tts-1-failover', voice: 'alloy', input: 'again' })
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer())).toEqual(concat(fakeSpeechChunks('again')))
    expect(o.up.requests.length - before).toBe(2)
    o.up.failNext('/v1/audio/speech', 400, { error: { message: `Invalid voice for key ${OP_KEY}`, param: 'voice' } })
    const bad = await post(key, { model: 'tts-1-failover', voice: 'nobody', input: 'again' })
    expect(bad.status).toBe(400)
    const text = await bad.text()
    expect(text).toContain('Invalid voice')
    expect(text).not.toContain(OP_KEY)
  })
})
