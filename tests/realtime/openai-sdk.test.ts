/**
 * The official `openai` SDK's realtime client (OpenAIRealtimeWebSocket, Bun's native WebSocket) against the gateway.
 * The SDK dials only wss://, so the app also listens with TLS here (the test certificate; the client's WebSocket
 * skips the name check, the test's own "WebSocket implementation for Bun").
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import OpenAI from 'openai'
import { OpenAIRealtimeWebSocket } from 'openai/realtime/websocket'
import { createApp } from '../../src/app'
import { addUser } from '../helpers/accounts'
import { startFakeRealtime, type FakeRealtime } from '../helpers/fake-upstreams/realtime'
import { startTestApp, type TestApp } from '../helpers/test-app'
import { until } from '../helpers/wait'
import { createToken } from '../../src/services/tokens/create-token'
import type { TokenFieldsInput } from '../../src/services/tokens/token-fields'

const CERT = readFileSync(join(import.meta.dir, '../fixtures/tls/upstream-test.crt'), 'utf8')
const KEY = readFileSync(join(import.meta.dir, '../fixtures/tls/upstream-test.key'), 'utf8')
const UPSTREAM_KEY = 'sk-realtime-upstream-sdk-0123456789'

let app: TestApp
let fake: FakeRealtime
/** the app listening with TLS too (on the same services) */
let secure: { stop(closeActive?: boolean): Promise<void>; server: { port?: number } | null }
let key: string
const NativeWebSocket = globalThis.WebSocket

beforeAll(async () => {
  app = await startTestApp()
  fake = startFakeRealtime(UPSTREAM_KEY)
  fake.usage = { total_tokens: 30, input_tokens: 20, output_tokens: 10, input_token_details: { audio_tokens: 5 }, output_token_details: { audio_tokens: 4 } }
  const user = await addUser(app, { username: 'sdk', quota: 10_000_000 })
  key = (await createToken(app.deps, { user, fields: { name: 'sdk', unlimited_quota: true } as TokenFieldsInput })).key
  await app.deps.routing.channels.create([{ name: 'openai-rt', type: 1, baseUrl: fake.url, keyText: UPSTREAM_KEY, models: 'gpt-realtime', group: 'default' }])
  secure = createApp(app.deps).listen({ port: 0, hostname: '127.0.0.1', tls: { cert: CERT, key: KEY } }) as unknown as typeof secure
  // the SDK calls `new WebSocket(url, protocols)`: Bun's, trusting the test certificate whatever the name
  globalThis.WebSocket = class extends NativeWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, { protocols, tls: { rejectUnauthorized: false } } as unknown as string[])
    }
  } as typeof WebSocket
})
afterAll(async () => {
  globalThis.WebSocket = NativeWebSocket
  await secure.stop(true)
  await app.stop()
  await fake.stop()
})

test('OpenAIRealtimeWebSocket: the key rides in the subprotocol, events flow both ways, the response is billed', async () => {
  const client = new OpenAI({ apiKey: key, baseURL: `https://127.0.0.1:${secure.server!.port}/v1` })
  const rt = new OpenAIRealtimeWebSocket({ model: 'gpt-realtime' }, client)
  const seen: string[] = []
  rt.on('event', (event) => seen.push(event.type))
  await until(() => seen.includes('session.created'))
  rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } })
  rt.send({ type: 'response.create' })
  await until(() => seen.includes('response.done'))
  expect(seen).toEqual(['session.created', 'conversation.item.created', 'response.created', 'response.output_audio_transcript.delta', 'response.text.delta', 'response.done'])
  rt.close()
  await until(async () => (await app.deps.metering.logs.flush(), (app.db.$client.query("SELECT count(*) AS n FROM logs WHERE model_name = 'gpt-realtime'").get() as { n: number }).n === 1))
  const row = app.db.$client.query("SELECT prompt_tokens, completion_tokens FROM logs WHERE model_name = 'gpt-realtime'").get()
  expect(row).toEqual({ prompt_tokens: 20, completion_tokens: 10 })
})
