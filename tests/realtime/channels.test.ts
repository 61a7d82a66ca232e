/**
 * /v1/realtime across channels and limits, end to end over real WebSockets: Azure's realtime URL and `api-key`
 * header, failover while no upstream has accepted the upgrade, and the session time limit ending a session with the
 * documented error event and close, settled for what it used.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { addUser } from '../helpers/accounts'
import { startFakeRealtime, type FakeRealtime } from '../helpers/fake-upstreams/realtime'
import { startTestApp, type TestApp } from '../helpers/test-app'
import { until } from '../helpers/wait'
import { createToken } from '../../src/services/tokens/create-token'
import type { TokenFieldsInput } from '../../src/services/tokens/token-fields'
import type { UserRow } from '../../src/db/repos'

const KEY = 'sk-realtime-upstream-0123456789'
const USAGE = { total_tokens: 150, input_tokens: 100, output_tokens: 50, input_token_details: { text_tokens: 100, audio_tokens: 0, cached_tokens: 0 }, output_token_details: { text_tokens: 50, audio_tokens: 0 } }

let app: TestApp
let azure: FakeRealtime
let refusing: FakeRealtime
let accepting: FakeRealtime
let user: UserRow
const newKey = async (fields: Partial<TokenFieldsInput> = {}) => (await createToken(app.deps, { user, fields: { name: 'rt', unlimited_quota: true, ...fields } as TokenFieldsInput })).key

beforeAll(async () => {
  app = await startTestApp()
  await app.deps.options.set('SelfUseModeEnabled', false)
  azure = startFakeRealtime(KEY)
  refusing = startFakeRealtime(KEY)
  accepting = startFakeRealtime(KEY)
  for (const fake of [azure, refusing, accepting]) fake.usage = USAGE
  user = await addUser(app, { username: 'voices', quota: 10_000_000 })
  await app.deps.routing.channels.create([
    { name: 'azure-rt', type: 3, baseUrl: azure.url, keyText: KEY, other: '2024-10-01-preview', models: 'gpt-4o-realtime-preview', group: 'default' },
    { name: 'first', type: 1, baseUrl: refusing.url, keyText: KEY, models: 'gpt-realtime-mini', group: 'default', priority: 10 },
    { name: 'second', type: 1, baseUrl: accepting.url, keyText: KEY, models: 'gpt-realtime-mini', group: 'default', priority: 0 },
  ])
})
afterAll(async () => {
  await app.stop()
  await Promise.all([azure.stop(), refusing.stop(), accepting.stop()])
})

async function connect(model: string, key: string) {
  const events: { type: string; [k: string]: unknown }[] = []
  const socket = new WebSocket(`${app.url.replace('http', 'ws')}/v1/realtime?model=${model}`, { headers: { authorization: `Bearer ${key}` } } as unknown as string[])
  socket.addEventListener('message', (e) => events.push(JSON.parse(String(e.data))))
  const closed = new Promise<CloseEvent>((resolve) => socket.addEventListener('close', (e) => resolve(e)))
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve)
    socket.addEventListener('error', reject)
  })
  return { socket, events, closed, send: (e: object) => socket.send(JSON.stringify(e)) }
}

const tokenIdOf = async (full: string) => (await app.deps.repos.tokens.findByKeyHash(new Bun.CryptoHasher('sha256').update(full.replace(/^sk-/, '')).digest('hex')))!.id
const logsOf = (tokenId: number) => app.db.$client.query('SELECT * FROM logs WHERE token_id = ? ORDER BY id').all(tokenId) as Record<string, any>[]
async function rowOf(key: string) {
  const tokenId = await tokenIdOf(key)
  await until(async () => (await app.deps.metering.logs.flush(), logsOf(tokenId).length === 1), { what: 'the session log row' })
  return logsOf(tokenId)[0]!
}

test("Azure: the deployment's /openai/realtime with the channel's api-version, the key as api-key; events flow, the response is billed", async () => {
  const key = await newKey()
  const client = await connect('gpt-4o-realtime-preview', key)
  await until(() => client.events.some((e) => e.type === 'session.created'))
  expect(azure.handshakes.at(-1)).toMatchObject({ path: '/openai/realtime?api-version=2024-10-01-preview&deployment=gpt-4o-realtime-preview', auth: `api-key ${KEY}` })
  client.send({ type: 'response.create' })
  await until(() => client.events.some((e) => e.type === 'response.done'))
  client.socket.close(1000)
  const row = await rowOf(key)
  expect(row).toMatchObject({ model_name: 'gpt-4o-realtime-preview', prompt_tokens: 100, completion_tokens: 50, is_stream: 1 })
  // gpt-4o-realtime-preview text at US$5 in, 20 out per million
  expect(row.quota).toBe(Math.round(((100 * 5 + 50 * 20) / 1e6) * 500_000))
})

test('every channel refusing: an HTTP error in OpenAI shape, no socket, nothing billed', async () => {
  refusing.refuse = 503
  accepting.refuse = 503
  try {
    const key = await newKey()
    const used = (await app.deps.repos.users.findById(user.id))!.usedQuota
    const res = await fetch(`${app.url}/v1/realtime?model=gpt-realtime-mini`, { headers: { authorization: `Bearer ${key}`, upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' } })
    expect(res.status).toBe(503)
    expect(((await res.json()) as any).error.message).toContain('all channels')
    await app.deps.metering.settledAll()
    expect((await app.deps.repos.users.findById(user.id))!.usedQuota).toBe(used)
  } finally {
    accepting.refuse = undefined
    refusing.refuse = undefined
  }
})

test('a channel that refuses the upgrade (503, then 401, which also disables it as for any request) is passed over for the next; the session runs there', async () => {
  for (const status of [503, 401]) {
    refusing.refuse = status
    const before = { refused: refusing.handshakes.length, accepted: accepting.handshakes.length }
    const key = await newKey()
    const client = await connect('gpt-realtime-mini', key)
    await until(() => client.events.some((e) => e.type === 'session.created'))
    expect(refusing.handshakes.length - before.refused).toBe(1)
    expect(accepting.handshakes.length - before.accepted).toBe(1)
    client.send({ type: 'response.create' })
    await until(() => client.events.some((e) => e.type === 'response.done'))
    expect(refusing.received).toHaveLength(0)
    client.socket.close(1000)
    const row = await rowOf(key)
    expect(row.channel_id).toBe(app.deps.routing.channels.all().find((c) => c.name === 'second')!.id)
    const first = app.deps.routing.channels.all().find((c) => c.name === 'first')!.id
    expect(JSON.parse(row.other).attempts).toEqual([{ channelId: first, status, error: expect.stringContaining(`Expected 101 status code: ${status}`) }, { channelId: row.channel_id, status: 200 }])
  }
})

test('RealtimeMaxSessionSeconds: the session gets the session_expired error event and a close, its upstream is closed, and it is settled for what it used', async () => {
  await app.deps.options.set('RealtimeMaxSessionSeconds', 1)
  try {
    const key = await newKey()
    const openBefore = accepting.open
    const client = await connect('gpt-realtime-mini', key)
    await until(() => client.events.some((e) => e.type === 'session.created'))
    client.send({ type: 'response.create' })
    await until(() => client.events.some((e) => e.type === 'response.done'))
    const closed = await client.closed
    expect(closed.code).toBe(1000)
    expect(client.events.at(-1)).toMatchObject({ type: 'error', error: { code: 'session_expired' } })
    await until(() => accepting.open === openBefore, { what: 'the upstream socket closed' })
    const row = await rowOf(key)
    expect(row).toMatchObject({ prompt_tokens: 100, completion_tokens: 50 })
    expect(row.quota).toBeGreaterThan(0)
  } finally {
    await app.deps.options.set('RealtimeMaxSessionSeconds', 3600)
  }
})
