import { afterAll, afterEach, beforeAll, beforeEach, expect, spyOn, test } from 'bun:test'
import { startRelayEnv, type RelayEnv } from '../../helpers/relay-env'
import { call } from '../../helpers/test-app'
import { userHeaders } from './helpers'

/** GET /api/channel/test/:id on a pool of keys: every key tested, the verdicts reach the relay's rotation. */
let env: RelayEnv
let admin: Record<string, string>
let logged: string[] = []
const spies: ReturnType<typeof spyOn>[] = []

beforeAll(async () => {
  env = await startRelayEnv()
  admin = await userHeaders(env.app)
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  logged = []
  for (const level of ['log', 'warn', 'error'] as const) {
    spies.push(spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))))
  }
})
afterEach(() => {
  for (const spy of spies.splice(0)) spy.mockRestore()
})

const FIRST = 'sk-pool-first-key-aaaaaaaa1111'
const SECOND = 'sk-pool-second-key-bbbbbbbb2222'

const testChannel = (id: number) => call(env.app, 'GET', `/api/channel/test/${id}`, undefined, admin)

/** The upstream keys the relay used for `n` requests of `model` (all expected to succeed). */
async function keysUsedByRelay(model: string, n: number): Promise<string[]> {
  env.upstream.reset()
  for (let i = 0; i < n; i++) {
    const res = await env.app.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}` },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(res.status).toBe(200)
  }
  return env.upstream.requests.map((r) => r.headers.authorization!.replace('Bearer ', ''))
}

const containsAKey = (text: string) => [FIRST, SECOND].some((key) => text.includes(key) || text.includes(key.slice(3, -4)))

test('a revoked second key fails the test by position and hint, leaves the rotation, and rejoins once it works', async () => {
  env.upstream.setKeys([FIRST])
  const id = await env.addChannel({ type: 1, name: 'pair', models: 'pair-model', autoBan: 1, keyText: `${FIRST}\n${SECOND}` })

  const failed = await testChannel(id)
  expect(failed.status).toBe(200)
  expect(failed.body.success).toBe(false)
  expect(failed.body.message).toStartWith('1 of 2 keys failed: key 2 (…2222): upstream 401: Incorrect API key provided')
  expect(failed.body.message).not.toContain('key 1')
  expect(failed.body.data.status_code).toBe(401)
  expect(failed.body.data.time_ms).toBeGreaterThanOrEqual(0)
  expect(env.upstream.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${FIRST}`, `Bearer ${SECOND}`])
  expect(containsAKey(JSON.stringify(failed.body))).toBe(false)
  expect(logged.some((line) => line.includes('key 2 (…2222) out of the rotation'))).toBe(true)
  expect(logged.some(containsAKey)).toBe(false)
  expect((await env.app.deps.repos.channels.findById(id))!.status).toBe(1)

  expect(await keysUsedByRelay('pair-model', 4)).toEqual([FIRST, FIRST, FIRST, FIRST])

  env.upstream.setKeys([FIRST, SECOND])
  const passed = await testChannel(id)
  expect(passed.body).toMatchObject({ success: true, message: '' })
  expect(passed.body.data.status_code).toBe(200)
  expect(logged.some((line) => line.includes('key 2 (…2222) works again'))).toBe(true)
  expect(logged.some(containsAKey)).toBe(false)

  expect(new Set(await keysUsedByRelay('pair-model', 4))).toEqual(new Set([FIRST, SECOND]))
})

test('with auto_ban off a failing key is reported but stays in the rotation, as relay failures leave it', async () => {
  env.upstream.setKeys([FIRST])
  const id = await env.addChannel({ type: 1, name: 'no-ban', models: 'noban-model', autoBan: 0, keyText: `${FIRST}\n${SECOND}` })
  const failed = await testChannel(id)
  expect(failed.body.success).toBe(false)
  expect(failed.body.message).toContain('key 2 (…2222)')
  env.upstream.setKeys([FIRST, SECOND])
  expect(new Set(await keysUsedByRelay('noban-model', 4))).toEqual(new Set([FIRST, SECOND]))
})

test('a single-key channel reports exactly the upstream result: no key position, one request', async () => {
  env.upstream.setKeys([SECOND])
  const id = await env.addChannel({ type: 1, name: 'single', models: 'single-model', keyText: FIRST })
  const failed = await testChannel(id)
  expect(failed.body.success).toBe(false)
  expect(failed.body.message).toBe('Incorrect API key provided: sk-***1111. You can find your API key at https://platform.openai.com/account/api-keys.')
  expect(failed.body.data.status_code).toBe(401)
  expect(env.upstream.requests).toHaveLength(1)

  env.upstream.setKeys([FIRST])
  const passed = await testChannel(id)
  expect(passed.body).toMatchObject({ success: true, message: '', data: { status_code: 200, model: 'single-model' } })
  expect((await env.app.deps.repos.channels.findById(id))!.responseTime).toBe(passed.body.data.time_ms)
})

test('a pool of more than 32 keys: the first 32 are tested and the message says so', async () => {
  const keys = Array.from({ length: 34 }, (_, i) => `sk-many-keys-${String(i).padStart(4, '0')}-xxxxxxxx`)
  env.upstream.setKeys(keys)
  const id = await env.addChannel({ type: 1, name: 'many', models: 'many-model', keyText: keys.join('\n') })
  const res = await testChannel(id)
  expect(res.body).toMatchObject({ success: true, message: 'only the first 32 of 34 keys were tested' })
  expect(env.upstream.requests).toHaveLength(32)
})
