/**
 * Races on money, hundreds of requests at once over real HTTP: invitation-quota transfers, one redemption code
 * redeemed by many, token balance edits while the token spends, relay spending mixed with all of them, and a user
 * deleted while their streams run. Balances never go below zero, and every unit is in the logs: the balance moved
 * by exactly what the log rows (consume, top-up, manage) say.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { LogType, type LogRow } from '../../src/db/repos'
import { Role } from '../../src/db/repos/user-roles'
import type { RelayEnv } from '../helpers/relay-env'
import { account, chatBody, logsOf, settled, startMeteredEnv, userRow } from '../metering/env'
import { rawPost } from '../metering/raw-http'
import { userHeaders } from '../modules/channels/helpers'
import { until } from '../helpers/wait'

let env: RelayEnv
let admin: Record<string, string>
const PER_CALL = 1_000 // ModelPrice 0.002 US$ at 500,000 quota per US$
beforeAll(async () => {
  env = await startMeteredEnv()
  await env.app.deps.options.set('ModelPrice', { 'gpt-4o': 0.002 })
  await env.app.deps.options.set('ChannelFailureThreshold', 1000)
  await env.addChannel({ type: 1, models: 'gpt-4o' })
  admin = await userHeaders(env.app, Role.admin)
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
})

/** A user of role 1 with an access token (for /api) and an API key (for the relay). */
async function member(quota: number, extra: { affQuota?: number; remain?: number } = {}) {
  const { user, key } = await account(env, quota, extra.remain)
  if (extra.affQuota) await env.app.deps.repos.users.update(user.id, { affQuota: extra.affQuota })
  const secret = `tok-${crypto.randomUUID()}`
  await env.app.deps.repos.users.update(user.id, { accessToken: new Bun.CryptoHasher('sha256').update(secret).digest('hex') })
  return { user, key, api: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' } }
}

const post = (path: string, headers: Record<string, string>, body: unknown) => rawPost(env.app.url, path, headers, JSON.stringify(body))
const chat = (key: string) => post('/v1/chat/completions', { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, chatBody('gpt-4o'))
const shuffle = <T,>(items: T[]): T[] => items.map((v) => [Math.random(), v] as const).sort((a, b) => a[0] - b[0]).map(([, v]) => v)
const sum = (rows: LogRow[], type: number) => rows.filter((r) => r.type === type).reduce((n, r) => n + r.quota, 0)
/** what the manage log rows of successful invitation transfers moved */
const affMoved = (rows: LogRow[]) =>
  rows.filter((r) => r.type === LogType.manage && r.content.includes('/api/user/aff_transfer')).reduce((n, r) => n + Number(JSON.parse(r.other).quota), 0)

test('300 simultaneous invitation transfers of one unit against 10 units: exactly 10 move, never below zero, each logged', async () => {
  const unit = 500_000
  const { user, api } = await member(0, { affQuota: 10 * unit + 123 })
  const results = await Promise.all(Array.from({ length: 300 }, () => post('/api/user/aff_transfer', api, { quota: unit })))
  expect(results.filter((r) => r.status === 200)).toHaveLength(10)
  expect(results.filter((r) => r.status === 400)).toHaveLength(290)
  const row = await userRow(env, user.id)
  expect(row.affQuota).toBe(123)
  expect(row.quota).toBe(10 * unit)
  expect(affMoved(await logsOf(env, user.id))).toBe(10 * unit)
}, 30_000)

test('one redemption code redeemed 300 times at once by 100 users: exactly one top-up, one log row', async () => {
  const created = await post('/api/redemption/', { ...admin, 'content-type': 'application/json' }, { name: 'race', count: 1, quota: 777_777 })
  const code = JSON.parse(created.body).data.keys[0] as string
  const users = await Promise.all(Array.from({ length: 100 }, () => member(1_000)))
  const tries = shuffle(users.flatMap((u) => [u, u, u])).map((u) => post('/api/user/topup', u.api, { key: code }))
  const results = await Promise.all(tries)
  expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  expect(results.filter((r) => r.status === 400)).toHaveLength(299)
  const balances = await Promise.all(users.map(async (u) => (await userRow(env, u.user.id)).quota))
  expect(balances.filter((q) => q === 1_000 + 777_777)).toHaveLength(1)
  expect(balances.filter((q) => q === 1_000)).toHaveLength(99)
  const topups = (await Promise.all(users.map((u) => logsOf(env, u.user.id)))).flat().filter((r) => r.type === LogType.topup)
  expect(topups).toHaveLength(1)
  expect(topups[0]!.quota).toBe(777_777)
}, 30_000)

test('a token balance edited 60 times while 300 requests spend it: never below zero, every charge logged, used = the logs', async () => {
  const { user, key, api } = await member(100_000_000, { remain: 20 * PER_CALL })
  const token = (await env.app.deps.repos.tokens.listOwned(user.id, 0, 1)).items[0]!
  env.upstream.setBehavior({ text: 'ok', firstByteDelayMs: 15, usage: { input: 10, output: 10 } })
  const put = (remain: number) =>
    env.app.fetch('/api/token/', { method: 'PUT', headers: api, body: JSON.stringify({ id: token.id, name: token.name, remain_quota: remain, unlimited_quota: false }) }).then((r) => r.status)
  const spends = Array.from({ length: 300 }, (_, i) => Bun.sleep(i % 50).then(() => chat(key)))
  const edits = Array.from({ length: 60 }, (_, i) => Bun.sleep(i * 2).then(() => put((1 + Math.floor(Math.random() * 10)) * PER_CALL)))
  const statuses = (await Promise.all(spends)).map((r) => r.status)
  expect(await Promise.all(edits)).toEqual(Array(60).fill(200))
  // refused while the balance cannot cover a call: 403 insufficient, or 401 when the key is at zero (new-api's exhausted)
  expect(statuses.every((s) => s === 200 || s === 403 || s === 401)).toBe(true)
  const served = statuses.filter((s) => s === 200).length
  expect(served).toBeGreaterThan(0)
  await settled(env, served)
  const logs = await logsOf(env, user.id)
  const after = (await env.app.deps.repos.tokens.listOwned(user.id, 0, 1)).items[0]!
  expect(after.remainQuota).toBeGreaterThanOrEqual(0)
  expect(logs.filter((r) => r.type === LogType.consume)).toHaveLength(served)
  expect(sum(logs, LogType.consume)).toBe(served * PER_CALL)
  expect(after.usedQuota).toBe(served * PER_CALL)
  expect(100_000_000 - (await userRow(env, user.id)).quota).toBe(served * PER_CALL)
}, 60_000)

test('everything at once on one user: relay spending, transfers, top-ups and admin quota edits; the balance is the sum of the logs', async () => {
  const unit = 500_000
  const start = 30 * PER_CALL
  const { user, key, api } = await member(start, { affQuota: 3 * unit })
  env.upstream.setBehavior({ text: 'ok', firstByteDelayMs: 10, usage: { input: 10, output: 10 } })
  const codes = JSON.parse((await post('/api/redemption/', { ...admin, 'content-type': 'application/json' }, { name: 'mix', count: 5, quota: 4_321 })).body).data.keys as string[]
  const jobs: (() => Promise<{ status: number }>)[] = [
    ...Array.from({ length: 300 }, () => () => chat(key)),
    ...Array.from({ length: 60 }, () => () => post('/api/user/aff_transfer', api, { quota: unit })),
    ...codes.flatMap((code) => Array.from({ length: 20 }, () => () => post('/api/user/topup', api, { key: code }))),
    ...Array.from({ length: 20 }, () => () => post('/api/user/manage', { ...admin, 'content-type': 'application/json' }, { id: user.id, action: 'add_quota', value: 1_000, mode: 'add' })),
  ]
  const results = await Promise.all(shuffle(jobs).map((job) => job()))
  expect(results.every((r) => r.status < 500)).toBe(true)
  await Bun.sleep(100)
  const consumed = env.outcomes.length
  await settled(env, consumed)
  const logs = await logsOf(env, user.id)
  const adminLogs = await logsOf(env, Number(Object.values((await env.app.deps.repos.users.list(0, 1000)).items).find((u) => u.role === Role.admin)?.id ?? 0))
  const added = adminLogs.filter((r) => r.content.includes('/api/user/manage') && r.other.includes(`"id":${user.id}`)).length * 1_000
  const row = await userRow(env, user.id)
  expect(row.quota).toBeGreaterThanOrEqual(0)
  expect(row.affQuota).toBe(0)
  expect(affMoved(logs)).toBe(3 * unit)
  expect(sum(logs, LogType.topup)).toBe(5 * 4_321)
  expect(row.quota).toBe(start + sum(logs, LogType.topup) + affMoved(logs) + added - sum(logs, LogType.consume))
  expect(row.usedQuota).toBe(sum(logs, LogType.consume))
}, 60_000)

describe('a user deleted while their streams run', () => {
  test('the streams end and settle, their charges are logged, no balance is written back to life, and logging goes on for others', async () => {
    const { user, key } = await member(1_000_000)
    env.upstream.setBehavior({ text: Array.from({ length: 20 }, (_, i) => `w${i} `), delayMs: 25, usage: { input: 10, output: 10 } })
    const body = JSON.stringify(chatBody('gpt-4o', { stream: true }))
    const sent = env.upstream.requests.length
    const streams = Array.from({ length: 50 }, () =>
      env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body }).then(async (res) => ({ status: res.status, text: await res.text().catch(() => '') })),
    )
    await until(() => env.upstream.requests.length >= sent + 50, { what: 'the 50 streams reserved and at the upstream' })
    const removed = await env.app.fetch(`/api/user/${user.id}`, { method: 'DELETE', headers: admin })
    expect(removed.status).toBe(200)
    const late = await chat(key) // the key went with its user
    expect(late.status).toBe(401)
    const done = await Promise.all(streams)
    expect(done.every((d) => d.status === 200)).toBe(true)
    await settled(env, 50)
    const rows = await logsOf(env, user.id)
    expect(rows.filter((r) => r.type === LogType.consume)).toHaveLength(50)
    expect(sum(rows, LogType.consume)).toBe(50 * PER_CALL)
    env.app.deps.repos.users.forget(user.id)
    expect(await env.app.deps.repos.users.findById(user.id)).toBeUndefined()
    expect((await env.app.deps.repos.tokens.listOwned(user.id, 0, 10)).items).toHaveLength(0)
    // the ledger's deltas for the deleted rows were written as no-ops: the next batch still commits
    const other = await member(1_000_000)
    expect((await chat(other.key)).status).toBe(200)
    await settled(env, 51)
    expect((await logsOf(env, other.user.id)).filter((r) => r.type === LogType.consume)).toHaveLength(1)
  }, 30_000)
})
