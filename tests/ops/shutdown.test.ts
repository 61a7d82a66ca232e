import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import { prepareDataDir, serve } from './process'
import { until } from '../helpers/wait'

const UPSTREAM_KEY = 'sk-upstream-shutdown-0123456789'
const STREAMS = 50
let upstream: FakeUpstream
const dirs: string[] = []

beforeAll(async () => {
  upstream = await startFakeUpstream({ keys: [UPSTREAM_KEY] })
})
afterAll(async () => {
  await upstream.stop()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

interface Client {
  requestId: string
  text: string
  /** resolves with the whole body once the stream ends */
  done: Promise<string>
}

/** Open one chat stream and read it to the end in the background; resolves once its first bytes arrived. */
async function openStream(url: string, key: string): Promise<Client> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'count' }] }),
  })
  expect(response.status).toBe(200)
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  const first = await reader.read()
  const client: Client = { requestId: response.headers.get('x-request-id')!, text: decoder.decode(first.value, { stream: true }), done: undefined as never }
  client.done = (async () => {
    for (let part = await reader.read(); !part.done; part = await reader.read()) client.text += decoder.decode(part.value, { stream: true })
    return client.text
  })()
  return client
}

async function startWithOpenStreams(env: Record<string, string>, deltas: number, delayMs: number, holdOpen = false) {
  const prepared = await prepareDataDir(upstream.url, UPSTREAM_KEY)
  dirs.push(prepared.dataDir)
  upstream.setBehavior({ text: Array.from({ length: deltas }, (_, i) => `w${i} `), delayMs, usage: { input: 5, output: deltas } })
  const server = await serve(prepared.dataDir, { BUN_CONFIG_MAX_HTTP_REQUESTS: '512', ...env })
  // warm up the tokenizer (loaded by the first priced request), so the streams all open at once
  upstream.setBehavior({ text: 'warm' })
  await (await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${prepared.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }) })).text()
  // holdOpen: each stream pauses after its first deltas until all are open (short streams: on a loaded machine
  // opening 50 took longer than a whole stream, and the first had ended before the last began)
  const opened = Promise.withResolvers<void>()
  const pauseAt = holdOpen ? { after: 2, ms: 60_000, until: opened.promise } : undefined
  upstream.setBehavior({ text: Array.from({ length: deltas }, (_, i) => `w${i} `), delayMs, pauseAt, usage: { input: 5, output: deltas } })
  const clients = await Promise.all(Array.from({ length: STREAMS }, () => openStream(server.url, prepared.key)))
  const metrics = await (await fetch(`${server.url}/metrics`)).text()
  opened.resolve()
  expect(metrics).toContain(`tollgate_relay_open_streams ${STREAMS}\n`)
  return { prepared, server, clients }
}

/** The usage log rows of the streams, read from the database once the process is gone. */
function streamRows(dataDir: string): { request_id: string; type: number; content: string; completion_tokens: number }[] {
  const db = new Database(join(dataDir, 'tollgate.db'), { readonly: true })
  try {
    return db.query<any, []>('SELECT request_id, type, content, completion_tokens FROM logs WHERE is_stream = 1').all()
  } finally {
    db.close()
  }
}

test(`SIGTERM with ${STREAMS} open streams that end within the grace period: no new connections, every stream whole, every row written, exit 0`, async () => {
  const { prepared, server, clients } = await startWithOpenStreams({ SHUTDOWN_GRACE_SECONDS: '20' }, 12, 150, true)
  const signalled = performance.now()
  server.proc.kill('SIGTERM')
  await until(() => server.output().includes('draining'), { what: 'the draining log line' }) // logged as it stops listening
  // no new connection is accepted while the streams drain
  const refused = await fetch(`${server.url}/healthz`).then(
    (r) => `answered ${r.status}`,
    () => 'refused',
  )
  expect(refused).toBe('refused')
  const bodies = await Promise.all(clients.map((c) => c.done))
  expect(await server.stop()).toBe(0)
  const took = performance.now() - signalled
  // the streams take ~2 s: exiting before the 20 s grace ran out shows it waited for them, not for the deadline
  expect(took).toBeLessThan(20_000)
  for (const body of bodies) {
    // every delta once, in order, then the end
    const deltas = [...body.matchAll(/"content":"(w\d+ )"/g)].map((m) => m[1])
    expect(deltas).toEqual(Array.from({ length: 12 }, (_, i) => `w${i} `))
    expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true)
    expect(body).not.toContain('"error"')
  }
  const rows = streamRows(prepared.dataDir)
  expect(rows.map((r) => r.request_id).sort()).toEqual(clients.map((c) => c.requestId).sort())
  expect(rows.every((r) => r.type === 2 && r.completion_tokens === 12)).toBe(true)
  const lines = server.lines()
  expect(lines.filter((l) => l.msg === 'relay request' && l.stream).length).toBe(STREAMS)
  // in the order they were written: the drain's first line before the last one
  expect(lines.findIndex((l) => l.msg.startsWith('SIGTERM: draining'))).toBeLessThan(lines.length - 1)
  expect(lines.at(-1)!.msg).toBe('stopped')
}, 60_000)

test(`SIGTERM with ${STREAMS} streams longer than SHUTDOWN_GRACE_SECONDS: each ends with the protocol's error event, is billed and logged, and the process exits 0 soon after the grace period`, async () => {
  const { prepared, server, clients } = await startWithOpenStreams({ SHUTDOWN_GRACE_SECONDS: '1' }, 60, 200)
  const signalled = performance.now()
  server.proc.kill('SIGTERM')
  const bodies = await Promise.all(clients.map((c) => c.done))
  expect(await server.stop()).toBe(0)
  const took = performance.now() - signalled
  // not before the 1 s grace period, and before the 12 s streams could have ended by themselves: they were cut
  expect(took).toBeGreaterThan(900)
  expect(took).toBeLessThan(60 * 200)
  for (const body of bodies) {
    const events = body.split('\n\n').filter(Boolean)
    const last = JSON.parse(events.at(-1)!.replace(/^data: /, ''))
    expect(last.error.message).toContain('the gateway is shutting down')
    // what came before the error is whole: the first deltas, in order
    const deltas = [...body.matchAll(/"content":"(w\d+ )"/g)].map((m) => m[1])
    expect(deltas.length).toBeGreaterThan(0)
    expect(deltas).toEqual(Array.from({ length: deltas.length }, (_, i) => `w${i} `))
  }
  // every stream settled before the exit: billed for what it delivered, its error recorded
  const rows = streamRows(prepared.dataDir)
  expect(rows.map((r) => r.request_id).sort()).toEqual(clients.map((c) => c.requestId).sort())
  for (const row of rows) {
    expect(row.content).toContain('the gateway is shutting down')
    expect(row.completion_tokens).toBeGreaterThan(0)
  }
  const lines = server.lines()
  expect(lines.find((l) => l.msg.startsWith('shutdown: grace period over'))?.streams_ended).toBe(STREAMS)
  expect(lines.filter((l) => l.msg === 'relay request' && l.stream && l.error).length).toBe(STREAMS)
}, 60_000)
