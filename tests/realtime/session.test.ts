/**
 * /v1/realtime end to end: a gateway on loopback, a realtime fake upstream that speaks the documented events, and
 * clients over real WebSockets (Bun's). Refusals come before the upgrade; events pass both ways; every response.done
 * is billed at the model's text and audio prices, one log row per session with its totals.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { addUser } from '../helpers/accounts'
import { startFakeRealtime, type FakeRealtime } from '../helpers/fake-upstreams/realtime'
import { startTestApp, type TestApp } from '../helpers/test-app'
import { until } from '../helpers/wait'
import { createToken } from '../../src/services/tokens/create-token'
import type { TokenFieldsInput } from '../../src/services/tokens/token-fields'
import type { UserRow } from '../../src/db/repos'

const UPSTREAM_KEY = 'sk-realtime-upstream-0123456789'
const USAGE = {
  total_tokens: 1500,
  input_tokens: 1000,
  output_tokens: 500,
  input_token_details: { cached_tokens: 200, text_tokens: 400, audio_tokens: 600, cached_tokens_details: { text_tokens: 200, audio_tokens: 0 } },
  output_token_details: { text_tokens: 100, audio_tokens: 400 },
}
// gpt-realtime at 500,000 quota per US$: text in $4/M, cached $0.40/M, audio in $32/M, text out $16/M, audio out $64/M
const PER_RESPONSE = Math.round((200 * 4 + 200 * 0.4 + 600 * 32 + 100 * 16 + 400 * 64) / 1e6 * 500_000)

let app: TestApp
let fake: FakeRealtime
let user: UserRow
let key: string
const newKey = async (fields: Partial<TokenFieldsInput> = {}, owner = user) => (await createToken(app.deps, { user: owner, fields: { name: 'rt', unlimited_quota: true, ...fields } as TokenFieldsInput })).key

beforeAll(async () => {
  app = await startTestApp()
  await app.deps.options.set('SelfUseModeEnabled', false)
  fake = startFakeRealtime(UPSTREAM_KEY)
  fake.usage = USAGE
  user = await addUser(app, { username: 'voice', quota: 10_000_000 })
  key = await newKey()
  await app.deps.routing.channels.create([{ name: 'openai-rt', type: 1, baseUrl: fake.url, keyText: UPSTREAM_KEY, models: 'gpt-realtime', group: 'default' }])
})
afterAll(async () => {
  await app.stop()
  await fake.stop()
})

const wsUrl = (model = 'gpt-realtime') => `${app.url.replace('http', 'ws')}/v1/realtime?model=${model}`

/** A client socket and the events it got, in order. */
async function connect(options: { headers?: Record<string, string>; protocols?: string[]; model?: string }) {
  const events: { type: string; [k: string]: unknown }[] = []
  const socket = new WebSocket(wsUrl(options.model), { headers: options.headers, protocols: options.protocols } as unknown as string[])
  socket.addEventListener('message', (e) => events.push(JSON.parse(String(e.data))))
  const closed = new Promise<CloseEvent>((resolve) => socket.addEventListener('close', (e) => resolve(e)))
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve)
    socket.addEventListener('error', reject)
  })
  return { socket, events, closed, send: (e: object) => socket.send(JSON.stringify(e)) }
}

const handshake = (headers: Record<string, string> = {}, model = 'gpt-realtime') =>
  fetch(`${app.url}/v1/realtime?model=${model}`, { headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13', ...headers } })

const logsOf = (tokenId: number) => app.db.$client.query('SELECT * FROM logs WHERE token_id = ? ORDER BY id').all(tokenId) as Record<string, any>[]
const tokenIdOf = async (full: string) => (await app.deps.repos.tokens.findByKeyHash(new Bun.CryptoHasher('sha256').update(full.replace(/^sk-/, '')).digest('hex')))?.id

test('refused before the upgrade, in OpenAI error shape: no key, a bad key, a model the key may not use; the upstream never dialled', async () => {
  const before = fake.handshakes.length
  const none = await handshake()
  expect(none.status).toBe(401)
  expect((await none.json()).error.message).toContain('openai-insecure-api-key')
  expect((await handshake({ authorization: 'Bearer sk-nope' })).status).toBe(401)
  const limited = await newKey({ model_limits_enabled: true, model_limits: 'gpt-4o' })
  const refused = await handshake({ authorization: `Bearer ${limited}` })
  expect(refused.status).toBe(404)
  expect((await refused.json()).error.code).toBe('model_not_found')
  expect(fake.handshakes.length).toBe(before)
})

test('key as Bearer: events relayed both ways; the session is billed to the token at its totals, one log row', async () => {
  const client = await connect({ headers: { authorization: `Bearer ${key}` } })
  await until(() => client.events.some((e) => e.type === 'session.created'))
  client.send({ type: 'session.update', session: { instructions: 'be brief' } })
  client.send({ type: 'input_audio_buffer.append', audio: 'AAAA' })
  client.send({ type: 'input_audio_buffer.commit' })
  client.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } })
  client.send({ type: 'response.create' })
  await until(() => client.events.filter((e) => e.type === 'response.done').length === 1)
  client.send({ type: 'response.create' })
  await until(() => client.events.filter((e) => e.type === 'response.done').length === 2)
  expect(client.events.map((e) => e.type)).toEqual([
    'session.created', 'session.updated', 'input_audio_buffer.committed', 'conversation.item.created',
    'response.created', 'response.output_audio_transcript.delta', 'response.text.delta', 'response.done',
    'response.created', 'response.output_audio_transcript.delta', 'response.text.delta', 'response.done',
  ])
  expect(fake.received.map((e) => e.type).slice(-6)).toEqual(['session.update', 'input_audio_buffer.append', 'input_audio_buffer.commit', 'conversation.item.create', 'response.create', 'response.create'])
  client.socket.close(1000)
  const tokenId = (await tokenIdOf(key))!
  await until(async () => (await app.deps.metering.logs.flush(), logsOf(tokenId).length === 1))
  const [row] = logsOf(tokenId)
  expect(row).toMatchObject({ model_name: 'gpt-realtime', prompt_tokens: 2000, completion_tokens: 1000, cache_read_tokens: 400, quota: 2 * PER_RESPONSE, is_stream: 1 })
  expect((await app.deps.repos.users.findById(user.id))!.usedQuota).toBe(2 * PER_RESPONSE)
  expect(fake.handshakes.at(-1)).toMatchObject({ path: '/v1/realtime?model=gpt-realtime', auth: `Bearer ${UPSTREAM_KEY}` })
})

test('key in the openai-insecure-api-key subprotocol (as browsers send it): accepted, the socket speaks "realtime", the beta asked upstream', async () => {
  const browserKey = await newKey()
  const client = await connect({ protocols: ['realtime', `openai-insecure-api-key.${browserKey}`, 'openai-beta.realtime-v1'] })
  expect(client.socket.protocol).toBe('realtime')
  await until(() => client.events.some((e) => e.type === 'session.created'))
  expect(fake.handshakes.at(-1)!.beta).toBe('realtime=v1')
  client.socket.close(1000)
  await client.closed
})

test('a flood of client events: past RealtimeMaxEventsPerSecond each is answered with an error event and never sent upstream', async () => {
  await app.deps.options.set('RealtimeMaxEventsPerSecond', 5)
  try {
    const client = await connect({ headers: { authorization: `Bearer ${await newKey()}` } })
    await until(() => client.events.some((e) => e.type === 'session.created'))
    const before = fake.received.length
    for (let i = 0; i < 200; i++) client.send({ type: 'input_audio_buffer.append', audio: 'AAAA' })
    const refused = () => client.events.filter((e) => e.type === 'error' && (e.error as { code?: string }).code === 'rate_limit_exceeded').length
    await until(() => refused() + (fake.received.length - before) === 200)
    const forwarded = fake.received.length - before
    // 5 a second: the burst spans one or two seconds (three on a slow machine), never more reach the upstream
    expect(forwarded).toBeGreaterThanOrEqual(5)
    expect(forwarded).toBeLessThanOrEqual(15)
    expect(refused()).toBe(200 - forwarded)
    client.socket.close(1000)
    await client.closed
  } finally {
    await app.deps.options.set('RealtimeMaxEventsPerSecond', 100)
  }
})

test('the balance runs out mid-session: the reservation is topped up while it can be, then the protocol error event and a close; billed to the token at its totals', async () => {
  await app.deps.options.set('RealtimeReserveTokens', 1000) // 1000 audio tokens in and out: 48,000 quota held, topped up by as much
  const poor = await addUser(app, { username: 'poor', quota: 100_000 })
  const poorKey = await newKey({}, poor)
  const client = await connect({ headers: { authorization: `Bearer ${poorKey}` } })
  await until(() => client.events.some((e) => e.type === 'session.created'))
  for (let n = 1; n <= 4; n++) {
    client.send({ type: 'response.create' })
    await until(() => client.events.filter((e) => e.type === 'response.done').length === n)
  }
  // four responses cost 94,560; holding one more stretch (48,000) beyond them is more than the 100,000 balance holds
  const closed = await client.closed
  expect(closed.code).toBe(1008)
  const error = client.events.at(-1) as { type: string; error: { code: string; message: string } }
  expect(error).toMatchObject({ type: 'error', error: { code: 'insufficient_quota' } })
  const tokenId = (await tokenIdOf(poorKey))!
  await until(async () => (await app.deps.metering.logs.flush(), logsOf(tokenId).length === 1))
  expect(logsOf(tokenId)[0]).toMatchObject({ quota: 4 * PER_RESPONSE, prompt_tokens: 4000, completion_tokens: 2000 })
  expect((await app.deps.repos.users.findById(poor.id))!.quota).toBe(100_000 - 4 * PER_RESPONSE)
  await until(() => fake.open === 0, { what: 'the upstream socket closed' })
  await app.deps.options.set('RealtimeReserveTokens', 8000)
})

test('shutdown drain: an open session gets the error event and a 1012 close, its upstream is closed, and it is settled for what it used', async () => {
  const drainKey = await newKey()
  const client = await connect({ headers: { authorization: `Bearer ${drainKey}` } })
  client.send({ type: 'response.create' })
  await until(() => client.events.some((e) => e.type === 'response.done'))
  expect(app.deps.ops.streams.size).toBe(1)
  app.deps.ops.streams.endAll(new Error('the gateway is shutting down'))
  const closed = await client.closed
  expect(closed.code).toBe(1012)
  expect(client.events.at(-1)).toMatchObject({ type: 'error', error: { code: 'server_shutting_down' } })
  await app.deps.ops.streams.idle()
  await until(() => fake.open === 0, { what: 'the upstream socket closed' })
  const tokenId = (await tokenIdOf(drainKey))!
  await until(async () => (await app.deps.metering.logs.flush(), logsOf(tokenId).length === 1))
  expect(logsOf(tokenId)[0]).toMatchObject({ quota: PER_RESPONSE, prompt_tokens: 1000 })
})
