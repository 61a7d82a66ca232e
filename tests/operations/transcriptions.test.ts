import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI, { toFile } from 'openai'
import '../helpers/fake-upstreams/audio'
import { account, logsOf, settled, userRow } from '../metering/env'
import { OP_KEY, startOperationsEnv, type OperationsEnv } from './env'

// whisper-1 US$0.006 a minute = ModelRatio 50: quota per second
const WHISPER = 50

let o: OperationsEnv
beforeAll(async () => {
  o = await startOperationsEnv()
  await o.channel(1, 'whisper-1,gpt-4o-transcribe,gpt-4o-mini-transcribe')
  await o.channel(3, 'whisper-azure', { other: '2024-10-21' })
  await o.env.app.deps.options.set('ModelRatio', { 'whisper-azure': 50 })
  // Groq: a Custom channel with the preset's base URL (`https://api.groq.com/openai`)
  const [groq] = await o.env.app.deps.routing.channels.create([{ name: 'groq', type: 8, baseUrl: `${o.up.url}/openai`, keyText: OP_KEY, models: 'whisper-large-v3', group: 'default' }])
  expect(groq).toBeDefined()
})
afterAll(() => o.stop())

/** A WAV file of `seconds` (16 kHz mono, 16-bit): the fake reads its duration from the header, as the real API does from the audio. */
export function wav(seconds: number): Uint8Array<ArrayBuffer> {
  const data = Math.round(seconds * 32_000)
  const bytes = new Uint8Array(44 + data)
  const view = new DataView(bytes.buffer)
  bytes.set(new TextEncoder().encode('RIFF'), 0)
  view.setUint32(4, 36 + data, true)
  bytes.set(new TextEncoder().encode('WAVEfmt '), 8)
  view.setUint32(16, 16, true)
  view.setUint16(20, 1, true)
  view.setUint16(22, 1, true)
  view.setUint32(24, 16_000, true)
  view.setUint32(28, 32_000, true)
  view.setUint16(32, 2, true)
  view.setUint16(34, 16, true)
  bytes.set(new TextEncoder().encode('data'), 36)
  view.setUint32(40, data, true)
  for (let i = 44; i < bytes.length; i++) bytes[i] = (i * 31) % 251
  return bytes
}

async function payer(balance = 10_000_000) {
  const { user, key } = await account(o.env, balance)
  return { user, key, client: new OpenAI({ apiKey: key, baseURL: `${o.env.app.url}/v1`, maxRetries: 0 }) }
}

async function lastRow(userId: number) {
  await settled(o.env, o.env.outcomes.length)
  const rows = await logsOf(o.env, userId)
  return { row: rows.at(-1)!, other: JSON.parse(rows.at(-1)!.other) }
}

function upload(key: string, path: string, fields: Record<string, string | Blob | string[]>) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) form.append(name, v)
  return o.env.app.fetch(path, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form })
}

/** The header lines of the multipart part named `name`, as the upstream received them. */
function partHeaders(raw: Uint8Array, name: string): string {
  const text = Buffer.from(raw).toString('latin1')
  const start = text.indexOf(`Content-Disposition: form-data; name="${name}"`)
  return start < 0 ? '' : text.slice(start, text.indexOf('\r\n\r\n', start))
}

const AUDIO = wav(3.5)
const TEXT = 'Hello from talk.wav. Goodbye.'

describe('POST /v1/audio/transcriptions', () => {
  test('whisper-1 json: the file reaches the upstream untouched, verbose_json is asked for, the client gets json with usage in seconds', async () => {
    const { user, client } = await payer()
    const res = await client.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(AUDIO, 'talk.wav', { type: 'audio/wav' }), language: 'en', prompt: 'a greeting', temperature: 0.2 })
    expect(res).toEqual({ text: TEXT, usage: { type: 'duration', seconds: 4 } })
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/v1/audio/transcriptions')
    const file = sent.form!.get('file') as File
    expect(file.name).toBe('talk.wav')
    expect(partHeaders(sent.raw!, 'file')).toContain('Content-Type: audio/wav')
    expect(await file.bytes()).toEqual(AUDIO)
    expect(Object.fromEntries([...sent.form!.entries()].filter(([, v]) => typeof v === 'string'))).toEqual({ model: 'whisper-1', language: 'en', prompt: 'a greeting', temperature: '0.2', response_format: 'verbose_json' })
    const { row, other } = await lastRow(user.id)
    expect(row).toMatchObject({ modelName: 'whisper-1', promptTokens: 4, completionTokens: 0, quota: 4 * WHISPER, type: 2 })
    expect(other.reserved).toBe(Math.ceil(AUDIO.length / 750) * WHISPER)
    expect(other.estimated).toBeUndefined()
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000 - 4 * WHISPER)
  })

  test('a browser recording (named "blob", audio/webm) reaches the upstream with the type and name it was sent with', async () => {
    const { key } = await payer()
    const res = await upload(key, '/v1/audio/transcriptions', { model: 'whisper-1', file: new File([AUDIO], 'blob', { type: 'audio/webm' }) })
    expect(res.status).toBe(200)
    const sent = o.up.requests.at(-1)!
    expect(partHeaders(sent.raw!, 'file')).toBe('Content-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: audio/webm')
    expect(await (sent.form!.get('file') as File).bytes()).toEqual(AUDIO)
    // Bun's own FormData sends a Blob with an empty filename; it stays empty
    await upload(key, '/v1/audio/transcriptions', { model: 'whisper-1', file: new Blob([AUDIO], { type: 'audio/ogg' }) })
    expect(partHeaders(o.up.requests.at(-1)!.raw!, 'file')).toBe('Content-Disposition: form-data; name="file"; filename=""\r\nContent-Type: audio/ogg')
  })

  test('text, srt and vtt come back as text/plain, rendered from the segments; verbose_json as the upstream sent it', async () => {
    const { client, key } = await payer()
    const file = () => toFile(AUDIO, 'talk.wav', { type: 'audio/wav' })
    expect(await client.audio.transcriptions.create({ model: 'whisper-1', file: await file(), response_format: 'text' })).toBe(`${TEXT}\n`)
    expect(await client.audio.transcriptions.create({ model: 'whisper-1', file: await file(), response_format: 'srt' })).toBe(
      '1\n00:00:00,000 --> 00:00:01,750\nHello from talk.wav.\n\n2\n00:00:01,750 --> 00:00:03,500\nGoodbye.\n\n',
    )
    expect(await client.audio.transcriptions.create({ model: 'whisper-1', file: await file(), response_format: 'vtt' })).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.750\nHello from talk.wav.\n\n00:00:01.750 --> 00:00:03.500\nGoodbye.\n\n',
    )
    const verbose = await client.audio.transcriptions.create({ model: 'whisper-1', file: await file(), response_format: 'verbose_json', timestamp_granularities: ['word', 'segment'] })
    expect(verbose).toMatchObject({ task: 'transcribe', duration: 3.5, text: TEXT, words: [{ word: 'Hello', start: 0, end: 0.4 }], usage: { type: 'duration', seconds: 4 } })
    expect(verbose.segments).toHaveLength(2)
    expect(o.up.requests.at(-1)!.form!.getAll('timestamp_granularities[]')).toEqual(['word', 'segment'])
    const raw = await upload(key, '/v1/audio/transcriptions', { model: 'whisper-1', file: new File([AUDIO], 'a.wav'), response_format: 'srt' })
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  })

  test('gpt-4o-transcribe: billed by the tokens the upstream reports; text asked for is json upstream', async () => {
    const { user, client } = await payer()
    const res = await client.audio.transcriptions.create({ model: 'gpt-4o-transcribe', file: await toFile(AUDIO, 'talk.wav') })
    const input = Math.ceil(3.5 * 17) + 3
    expect(res.usage).toEqual({ type: 'tokens', input_tokens: input, input_token_details: { text_tokens: 3, audio_tokens: input - 3 }, output_tokens: 7, total_tokens: input + 7 })
    expect(o.up.requests.at(-1)!.form!.get('response_format')).toBe('json')
    const { row } = await lastRow(user.id)
    // US$6 (audio) in and US$10 out per million: ratio 3, completion 10/6
    expect(row).toMatchObject({ promptTokens: input, completionTokens: 7, quota: Math.round(Math.round((input + 7 * (10 / 6)) * 3 * 1e9) / 1e9) })
    const text = await client.audio.transcriptions.create({ model: 'gpt-4o-mini-transcribe', file: await toFile(AUDIO, 'talk.wav'), response_format: 'text' })
    expect(text).toBe(`${TEXT}\n`)
    expect(o.up.requests.at(-1)!.form!.get('response_format')).toBe('json')
  })

  test('gpt-4o-transcribe streams its transcript events as they come; the usage of the done event is billed', async () => {
    const { user, client } = await payer()
    const stream = await client.audio.transcriptions.create({ model: 'gpt-4o-transcribe', file: await toFile(AUDIO, 'talk.wav'), stream: true })
    const events: { type: string; delta?: string; text?: string }[] = []
    for await (const event of stream) events.push(event)
    expect(events.map((e) => e.type)).toEqual(['transcript.text.delta', 'transcript.text.delta', 'transcript.text.done'])
    expect(events.map((e) => e.delta ?? '').join('')).toBe(' Hello from talk.wav. Goodbye.')
    expect(o.up.requests.at(-1)!.form!.get('stream')).toBe('true')
    const input = Math.ceil(3.5 * 17) + 3
    const { row } = await lastRow(user.id)
    expect(row).toMatchObject({ promptTokens: input, completionTokens: 7, isStream: true })
  })

  test('whisper-1 ignores stream, as OpenAI does: the answer comes whole', async () => {
    const { key } = await payer()
    const res = await upload(key, '/v1/audio/transcriptions', { model: 'whisper-1', file: new File([AUDIO], 'a.wav'), stream: 'true' })
    expect(await res.json()).toEqual({ text: 'Hello from a.wav. Goodbye.', usage: { type: 'duration', seconds: 4 } })
    expect(o.up.requests.at(-1)!.form!.has('stream')).toBe(false)
  })

  test('Groq (a Custom channel at /openai): duration from verbose_json, where Groq sends no usage', async () => {
    const { user, client } = await payer()
    const res = await client.audio.transcriptions.create({ model: 'whisper-large-v3', file: await toFile(AUDIO, 'talk.wav') })
    expect(res).toEqual({ text: TEXT, usage: { type: 'duration', seconds: 4 } })
    expect(o.up.requests.at(-1)!.path).toBe('/openai/v1/audio/transcriptions')
    expect(o.up.requests.at(-1)!.headers.authorization).toBe(`Bearer ${OP_KEY}`)
    // US$0.111 an hour = 30.83 per million seconds: ratio 15.415
    expect((await lastRow(user.id)).row).toMatchObject({ promptTokens: 4, quota: Math.round(4 * 15.415) })
  })

  test('Azure: the deployment path with the api-version, the key as api-key', async () => {
    const { client } = await payer()
    await client.audio.transcriptions.create({ model: 'whisper-azure', file: await toFile(AUDIO, 'talk.wav') })
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/openai/deployments/whisper-azure/audio/transcriptions?api-version=2024-10-21')
    expect(sent.headers['api-key']).toBe(OP_KEY)
  })

  test('a balance below the size bound but above a typical bitrate is served, and billed the real duration', async () => {
    // 1 MB of mp3: the bound (6 kbit/s) is 1,399 s, a typical 128 kbit/s 66 s; the fake hears 65.5 s
    const mp3 = new Uint8Array(1_048_576).fill(7)
    const { user, client } = await payer(10_000)
    const res = await client.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(mp3, 'long.mp3', { type: 'audio/mpeg' }) })
    expect(res.usage).toEqual({ type: 'duration', seconds: 66 })
    expect((await lastRow(user.id)).row.quota).toBe(66 * WHISPER)
    expect((await userRow(o.env, user.id)).quota).toBe(10_000 - 66 * WHISPER)
  })

  test('a 25 MB upload goes through whole; one over the body limit is a 413', async () => {
    const big = new Uint8Array(25 * 1024 * 1024)
    for (let i = 0; i < big.length; i += 4096) big[i] = i & 0xff
    const { client, key } = await payer()
    const res = await client.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(big, 'big.mp3', { type: 'audio/mpeg' }) })
    expect(res.usage).toEqual({ type: 'duration', seconds: Math.ceil(big.length / 16_000) })
    const received = await (o.up.requests.at(-1)!.form!.get('file') as File).bytes()
    expect(received.length).toBe(big.length)
    expect(Buffer.compare(received, big)).toBe(0)
    const before = o.up.requests.length
    const tooBig = await upload(key, '/v1/audio/transcriptions', { model: 'whisper-1', file: new File([new Uint8Array(33 * 1024 * 1024)], 'huge.mp3') })
    expect(tooBig.status).toBe(413)
    expect(o.up.requests.length).toBe(before)
    // not multipart, chunked (no Content-Length to refuse up front), past the limit: still the 413, not the 400 for its type
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 34; i++) controller.enqueue(new Uint8Array(1024 * 1024))
        controller.close()
      },
    })
    const chunked = await o.env.app.fetch('/v1/audio/transcriptions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: chunks })
    expect(chunked.status).toBe(413)
  })

  test('a bad form is a 400 naming the field; nothing is sent or charged', async () => {
    const { user, key } = await payer()
    const before = o.up.requests.length
    const file = () => new File([AUDIO], 'a.wav')
    const cases: [Record<string, string | Blob | string[]>, string][] = [
      [{ model: 'whisper-1' }, 'file'],
      [{ model: 'whisper-1', file: 'not a file' }, 'file'],
      [{ model: 'whisper-1', file: new File([], 'empty.wav') }, 'file'],
      [{ file: file() }, 'model'],
      [{ model: 'whisper-1', file: file(), response_format: 'mp3' }, 'response_format'],
      [{ model: 'whisper-1', file: file(), temperature: '2' }, 'temperature'],
      [{ model: 'whisper-1', file: file(), temperature: 'warm' }, 'temperature'],
      [{ model: 'whisper-1', file: file(), 'timestamp_granularities[]': 'word' }, 'timestamp_granularities[]'],
      [{ model: 'whisper-1', file: file(), response_format: 'verbose_json', 'timestamp_granularities[]': 'sentence' }, 'timestamp_granularities[]'],
      [{ model: 'gpt-4o-transcribe', file: file(), response_format: 'srt' }, 'response_format'],
    ]
    for (const [fields, param] of cases) {
      const res = await upload(key, '/v1/audio/transcriptions', fields)
      expect(res.status, JSON.stringify(Object.keys(fields))).toBe(400)
      expect(((await res.json()) as any).error.param, param).toBe(param)
    }
    const json = await o.env.app.fetch('/v1/audio/transcriptions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"model":"whisper-1"}' })
    expect(json.status).toBe(400)
    expect(o.up.requests.length).toBe(before)
    expect((await userRow(o.env, user.id)).quota).toBe(10_000_000)
  })

  test('a failing channel fails over; an upstream 400 comes back with the key masked', async () => {
    await o.channel(1, 'whisper-failover', { priority: 5 })
    await o.channel(1, 'whisper-failover', { priority: -1 })
    await o.env.app.deps.options.set('ModelRatio', { 'whisper-azure': 50, 'whisper-failover': 50 })
    const { key } = await payer()
    o.up.failNext('/v1/audio/transcriptions', 502, { error: { message: 'bad gateway' } })
    const before = o.up.requests.length
    const res = await upload(key, '/v1/audio/transcriptions', { model: 'whisper-failover', file: new File([AUDIO], 'a.wav') })
    expect(res.status).toBe(200)
    expect(o.up.requests.length - before).toBe(2)
    // the second attempt sent the same file again
    expect(await (o.up.requests.at(-1)!.form!.get('file') as File).bytes()).toEqual(AUDIO)
    o.up.failNext('/v1/audio/transcriptions', 400, { error: { message: `Invalid file format (key ${OP_KEY})`, param: 'file' } })
    const bad = await upload(key, '/v1/audio/transcriptions', { model: 'whisper-failover', file: new File([AUDIO], 'a.wav') })
    expect(bad.status).toBe(400)
    const text = await bad.text()
    expect(text).toContain('Invalid file format')
    expect(text).not.toContain(OP_KEY)
  })
})

describe('POST /v1/audio/translations', () => {
  test('whisper-1: json is {text} (as OpenAI answers), srt from the segments; billed per second', async () => {
    const { user, client } = await payer()
    const res = await client.audio.translations.create({ model: 'whisper-1', file: await toFile(AUDIO, 'talk.wav'), prompt: 'english please' })
    expect(res).toEqual({ text: 'Hello in English from talk.wav. Goodbye.' })
    const sent = o.up.requests.at(-1)!
    expect(sent.path).toBe('/v1/audio/translations')
    expect(sent.form!.get('response_format')).toBe('verbose_json')
    expect(sent.form!.get('prompt')).toBe('english please')
    expect((await lastRow(user.id)).row).toMatchObject({ promptTokens: 4, quota: 4 * WHISPER })
    const srt = await client.audio.translations.create({ model: 'whisper-1', file: await toFile(AUDIO, 'talk.wav'), response_format: 'srt' })
    // the SDK's overloads type every translation as an object; srt and text come back as strings
    expect(srt as unknown as string).toBe('1\n00:00:00,000 --> 00:00:01,750\nHello in English from talk.wav.\n\n2\n00:00:01,750 --> 00:00:03,500\nGoodbye.\n\n')
  })

  test('Groq translations under /openai/v1', async () => {
    const { client } = await payer()
    const text = await client.audio.translations.create({ model: 'whisper-large-v3', file: await toFile(AUDIO, 'talk.wav'), response_format: 'text' })
    expect(text as unknown as string).toBe('Hello in English from talk.wav. Goodbye.\n')
    expect(o.up.requests.at(-1)!.path).toBe('/openai/v1/audio/translations')
  })
})
