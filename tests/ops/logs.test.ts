import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { join } from 'node:path'
import { login } from '../helpers/accounts'
import { startRelayEnv, UPSTREAM_KEY, type RelayEnv } from '../helpers/relay-env'
import { call } from '../helpers/test-app'
import { captureLog } from './helpers'

let env: RelayEnv
let log: ReturnType<typeof captureLog>
let channelId: number
const post = (path: string, body: unknown, headers: Record<string, string>) =>
  env.app.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
const chat = (body: Record<string, unknown>, key = env.key) => post('/v1/chat/completions', body, { authorization: `Bearer ${key}` })
/** the relay lines so far (they are written just after each request: drain what is still queued) */
const relayLines = () => {
  env.app.deps.ops.relay.drain()
  return log.lines().filter((l) => l.msg.startsWith('relay request'))
}

beforeAll(async () => {
  env = await startRelayEnv()
  channelId = await env.addChannel({ type: 1 })
})
beforeEach(() => {
  log = captureLog()
  env.app.deps.ops.log = log.logger
  env.upstream.setBehavior({ text: 'Hello there.', usage: { input: 11, output: 7 } })
})
afterAll(() => env.stop())

test('one JSON line per relay request: time, level, msg, request_id (= x-request-id), status, route, model, latency and the rest', async () => {
  const response = await chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
  expect(response.status).toBe(200)
  await response.text()
  const lines = relayLines()
  expect(lines).toHaveLength(1)
  const line = lines[0]!
  expect(line).toMatchObject({
    level: 'info',
    msg: 'relay request',
    request_id: response.headers.get('x-request-id')!,
    status: 200,
    route: '/v1/chat/completions',
    model: 'gpt-4o',
    channel: channelId,
    user: 'alice',
    token: 'test',
    stream: false,
    ttft_ms: null,
    tokens_in: 11,
    tokens_out: 7,
  })
  expect(new Date(line.time).getTime()).toBeGreaterThan(Date.now() - 60_000)
  expect(line.latency_ms).toBeGreaterThan(0)
  expect(line.upstream_ms).toBeGreaterThan(0)
  expect(line.quota).toBeGreaterThan(0)
})

test('a stream has its time to first token; refusals and bad keys get their line too, with their status', async () => {
  const stream = await chat({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'hi' }] })
  await stream.text()
  const unknown = await chat({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })
  const badKey = await chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, 'sk-not-a-real-key-000000000000')
  expect([stream.status, unknown.status, badKey.status]).toEqual([200, 404, 401])
  const lines = relayLines()
  expect(lines).toHaveLength(3)
  expect(lines[0]).toMatchObject({ request_id: stream.headers.get('x-request-id')!, status: 200, stream: true })
  expect(lines[0]!.ttft_ms).toBeGreaterThan(0)
  expect(lines[0]!.ttft_ms).toBeLessThanOrEqual(lines[0]!.latency_ms)
  expect(lines[1]).toMatchObject({ msg: 'relay request refused', request_id: unknown.headers.get('x-request-id')!, status: 404, route: '/v1/chat/completions', model: 'no-such-model', user: 'alice', error: 'model_not_found' })
  expect(lines[2]).toMatchObject({ request_id: badKey.headers.get('x-request-id')!, status: 401, user: null, token: null })
  for (const line of lines) expect(typeof line.latency_ms).toBe('number')
})

test('a management write is one line: who, what, the route and its status; secrets never appear in any line', async () => {
  const root = await login(env.app, 'root')
  const upstreamSecret = 'sk-upstream-very-secret-9f8e7d6c5b4a'
  const created = await call(env.app, 'POST', '/api/channel/', { type: 1, name: 'second', key: upstreamSecret, base_url: env.upstream.url, models: 'gpt-4o-mini' }, { cookie: root })
  expect(created.status).toBe(200)
  const user = await call(env.app, 'POST', '/api/user/', { username: 'bob', password: 'bob-password-secret-1' }, { cookie: root })
  expect(user.status).toBe(200)
  const token = await call(env.app, 'POST', '/api/token/', { name: 'mine', unlimited_quota: true }, { cookie: root })
  const key = String(token.body.data.key)
  const relayed = await chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, key)
  expect(relayed.status).toBe(200)
  env.app.deps.ops.relay.drain()
  const writes = log.lines().filter((l) => l.msg === 'management write')
  expect(writes.map((l) => l.route)).toEqual(['POST /api/channel/', 'POST /api/user/', 'POST /api/token/'])
  expect(writes[0]).toMatchObject({ level: 'info', status: 200, user: 'root', request_id: created.headers.get('x-request-id')!, model: null })
  expect(writes[0]!.details.key).toBe('[redacted]')
  expect(writes[1]!.details.password).toBe('[redacted]')
  const all = log.raw.join('')
  for (const secret of [upstreamSecret, UPSTREAM_KEY, 'bob-password-secret-1', key, key.slice(3), env.key, root.split('=')[1]!]) expect(all).not.toContain(secret)
})

test('LOG_LEVEL above info: no per-request lines', async () => {
  const quiet = captureLog()
  quiet.logger.level = 'warn'
  env.app.deps.ops.log = quiet.logger
  await (await chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).text()
  env.app.deps.ops.relay.drain()
  expect(quiet.raw).toEqual([])
})

const ROOT = join(import.meta.dir, '../..')

/** Start `bun src/index.ts serve` on a free port until it says it listens; returns what it printed. */
async function startupOutput(env: Record<string, string>): Promise<string> {
  const dir = join(require('node:os').tmpdir(), `tollgate-logs-${process.pid}-${Math.random().toString(36).slice(2)}`)
  const proc = Bun.spawn(['bun', join(ROOT, 'src/index.ts'), 'serve', '--port', '0', '--data-dir', dir], {
    env: { PATH: process.env.PATH!, HOME: dir, HOST: '127.0.0.1', ROOT_PASSWORD: 'root-password-123', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let out = ''
  const reader = proc.stdout.getReader()
  const deadline = Date.now() + 60_000 // a hang detector: a loaded full run took more than 15 s to load the source
  while (!out.includes('listening on') && Date.now() < deadline) {
    const { value, done } = await reader.read()
    if (done) break
    out += new TextDecoder().decode(value)
  }
  proc.kill('SIGTERM')
  await proc.exited
  require('node:fs').rmSync(dir, { recursive: true, force: true })
  return out + (await new Response(proc.stderr).text())
}

test('the server logs JSON lines when stdout is not a terminal, pretty lines with LOG_FORMAT=pretty', async () => {
  const json = await startupOutput({})
  const lines = json.trim().split('\n')
  expect(lines.length).toBeGreaterThanOrEqual(2)
  for (const line of lines) expect(JSON.parse(line)).toMatchObject({ time: expect.any(String), level: expect.any(String), msg: expect.any(String) })
  expect(lines.map((l) => JSON.parse(l).msg).join('\n')).toContain('listening on')
  const pretty = await startupOutput({ LOG_FORMAT: 'pretty' })
  expect(pretty).toContain('listening on')
  expect(pretty).toContain('INFO')
  expect(() => JSON.parse(pretty.trim().split('\n')[0]!)).toThrow()
}, 150_000) // two gateway processes from source; a loaded machine took over 30 s, then past 15 s for one start
