/**
 * A reservation is a hold in memory: a log batch written while its request runs does not write it (so a crash then
 * cannot leave it charged without a log row), a repo that reads the balances first writes it (so a balance edit
 * sees what the relay sees), and the settlement writes what is left: the charge, to the unit.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { account, chatBody, settled, startMeteredEnv } from '../metering/env'
import { until } from '../helpers/wait'

let env: RelayEnv
const PER_CALL = 1_000
beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('ModelPrice', { 'gpt-4o': 0.002 })
  await env.addChannel({ type: 1, models: 'gpt-4o' })
})
afterAll(() => env.stop())

const stored = (userId: number) => env.app.db.$client.query<{ quota: number }, [number]>('SELECT quota FROM users WHERE id = ?').get(userId)!.quota

test('a batch written while a request runs leaves its hold out; a balance read writes it; the settlement writes the rest', async () => {
  const { user, key } = await account(env, 50_000)
  env.upstream.setBehavior({ text: Array.from({ length: 10 }, (_, i) => `w${i} `), delayMs: 40, usage: { input: 10, output: 10 } })
  const sent = env.upstream.requests.length
  const stream = (async () => {
    const res = await env.app.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody('gpt-4o', { stream: true })),
    })
    return res.text()
  })()
  await until(() => env.upstream.requests.length > sent, { what: 'the stream reserved and at the upstream' })
  // the relay sees the hold; a log batch (other requests' rows) does not write it
  expect((await env.app.deps.repos.users.findById(user.id))!.quota).toBe(50_000 - PER_CALL)
  await env.app.deps.metering.logs.flush()
  expect(stored(user.id)).toBe(50_000)
  // a repo about to read or write balances writes it first (an admin's add_quota, a redemption …)
  await env.app.deps.repos.users.addQuota(user.id, 5)
  expect(stored(user.id)).toBe(50_000 - PER_CALL + 5)
  expect((await env.app.deps.repos.users.findById(user.id))!.quota).toBe(50_000 - PER_CALL + 5)
  await stream
  await settled(env, 1)
  await env.app.deps.metering.logs.flush()
  expect(stored(user.id)).toBe(50_000 - PER_CALL + 5)
  expect((await env.app.deps.repos.users.findById(user.id))!.quota).toBe(50_000 - PER_CALL + 5)
})

test('a request refused upstream after its hold: nothing is ever written for it', async () => {
  const { user, key } = await account(env, 50_000)
  env.upstream.setBehavior({ error: { status: 500 } })
  const res = await env.app.fetch('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(chatBody('gpt-4o')),
  })
  expect(res.status).toBe(503)
  await env.app.deps.metering.logs.flush()
  expect(stored(user.id)).toBe(50_000)
  expect((await env.app.deps.repos.users.findById(user.id))!.quota).toBe(50_000)
})
