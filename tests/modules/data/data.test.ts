import { afterAll, beforeAll, expect, setSystemTime, test } from 'bun:test'
import { Role } from '../../../src/db/repos/user-roles'
import { addUser, login } from '../../helpers/accounts'
import type { RelayEnv } from '../../helpers/relay-env'
import { call } from '../../helpers/test-app'
import { account, chat, chatBody, startMeteredEnv } from '../../metering/env'

let env: RelayEnv
let admin: string
let payer: { id: number; username: string; cookie: string }

// The clock stands still in the middle of the current hour, so the requests and the expected bucket share
// one hour even when the suite runs across an hour boundary.
const FROZEN = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1_800_000

beforeAll(async () => {
  setSystemTime(new Date(FROZEN))
  env = await startMeteredEnv()
  await env.addChannel({ type: 1, models: 'gpt-4o,gpt-4o-mini' })
  await addUser(env.app, { username: 'boss', role: Role.admin })
  admin = await login(env.app, 'boss')
  const a = await account(env, 10_000_000)
  payer = { id: a.user.id, username: a.user.username, cookie: await login(env.app, a.user.username) }
  const other = await account(env, 10_000_000)
  env.upstream.setBehavior({ text: 'ok', usage: { input: 100, output: 20 } })
  await chat(env, a.key, chatBody('gpt-4o'))
  await chat(env, a.key, chatBody('gpt-4o'))
  await chat(env, a.key, chatBody('gpt-4o-mini'))
  await chat(env, other.key, chatBody('gpt-4o'))
})
afterAll(async () => {
  await env.stop()
  setSystemTime()
})

const hour = () => Math.floor(Date.now() / 1000 / 3600) * 3600
test('the clock is frozen for this file', () => expect(hour()).toBe((FROZEN - 1_800_000) / 1000))
const perCall = (100 + 20 * 4) * 1.25

test('/api/data/self: the caller’s requests, quota and tokens per model per hour', async () => {
  const res = await call(env.app, 'GET', '/api/data/self', undefined, { cookie: payer.cookie })
  expect(res.status).toBe(200)
  expect(res.body.data).toEqual([
    { created_at: hour(), model_name: 'gpt-4o', count: 2, quota: 2 * perCall, token_used: 240 },
    { created_at: hour(), model_name: 'gpt-4o-mini', count: 1, quota: Math.round((100 + 20 * 4) * 0.075), token_used: 120 },
  ])
})

test('/api/data/: everyone, or one user by name; bad ranges are 400s', async () => {
  const all = await call(env.app, 'GET', '/api/data/', undefined, { cookie: admin })
  expect(all.body.data.find((r: any) => r.model_name === 'gpt-4o')).toMatchObject({ count: 3, quota: 3 * perCall })
  const one = await call(env.app, 'GET', `/api/data/?username=${payer.username}`, undefined, { cookie: admin })
  expect(one.body.data.find((r: any) => r.model_name === 'gpt-4o').count).toBe(2)
  const past = await call(env.app, 'GET', '/api/data/?start_timestamp=0&end_timestamp=3600', undefined, { cookie: admin })
  expect(past.body.data).toEqual([])
  expect((await call(env.app, 'GET', '/api/data/?start_timestamp=10&end_timestamp=5', undefined, { cookie: admin })).status).toBe(400)
  expect((await call(env.app, 'GET', '/api/data/?start_timestamp=0', undefined, { cookie: admin })).status).toBe(400)
})
