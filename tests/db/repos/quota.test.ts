import { afterAll, beforeAll, beforeEach, expect, spyOn, test } from 'bun:test'
import { as, login, USER_PASSWORD } from '../../helpers/accounts'
import { call } from '../../helpers/test-app'
import type { RelayEnv } from '../../helpers/relay-env'
import { account, chat, chatBody, settled, startMeteredEnv } from '../../metering/env'

/**
 * The quota ledger: the relay's reservations and settlements run no SQL; their deltas reach the database
 * with the next log batch, or before any other repo reads or writes the balances.
 */
let env: RelayEnv
let channelId: number
let rootCookie: string

beforeAll(async () => {
  env = await startMeteredEnv()
  channelId = await env.addChannel({ type: 1, models: 'gpt-4o' })
  rootCookie = await login(env.app)
})
afterAll(() => env.stop())
beforeEach(async () => {
  await env.app.deps.metering.logs.flush()
  env.outcomes.length = 0
  env.upstream.setBehavior({ text: 'ok', usage: { input: 100, output: 50 } })
})

const sqlite = () => env.app.db.$client
const totalChanges = () => sqlite().query<{ n: number }, []>('SELECT total_changes() AS n').get()!.n
// PRAGMA data_version moves by one for each transaction another connection committed
const commitsByOthers = () => sqlite().query<{ data_version: number }, []>('PRAGMA data_version').get()!.data_version
const stored = (table: 'users' | 'tokens' | 'channels', id: number) =>
  sqlite().query<{ quota?: number; remain_quota?: number; used_quota: number }, [number]>(`SELECT * FROM ${table} WHERE id = ?`).get(id)!
const tokenIdOf = (userId: number) => sqlite().query<{ id: number }, [number]>('SELECT id FROM tokens WHERE user_id = ?').get(userId)!.id

// (100 + 50 × 4) × 1.25 = 375 per request at gpt-4o's default price
const COST = 375

test('a relay request writes nothing to SQLite; the next batch writes its charge and its log row in one commit', async () => {
  const { user, key } = await account(env, 1_000_000, 100_000)
  const tokenId = tokenIdOf(user.id)
  await chat(env, key, chatBody('gpt-4o')) // warm: the user and token rows are cached from here on
  await env.app.deps.metering.logs.flush()
  const changesBefore = totalChanges()
  const commitsBefore = commitsByOthers()
  const usersBefore = stored('users', user.id)
  const channelBefore = stored('channels', channelId).used_quota

  expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
  await settled(env, 2)
  expect(totalChanges()).toBe(changesBefore)
  expect(stored('users', user.id).quota).toBe(usersBefore.quota!)
  // relay auth already sees the new balance: the cached rows moved in place
  expect((await env.app.deps.repos.users.findById(user.id))!.quota).toBe(1_000_000 - 2 * COST)
  expect((await env.app.deps.repos.tokens.liveById(tokenId))!.remainQuota).toBe(100_000 - 2 * COST)

  expect(await env.app.deps.metering.logs.flush()).toBe(1)
  // written by the metering writer thread's connection, in one transaction, none by this one
  expect(totalChanges()).toBe(changesBefore)
  expect(commitsByOthers()).toBe(commitsBefore + 1)
  expect(stored('users', user.id)).toMatchObject({ quota: 1_000_000 - 2 * COST, used_quota: 2 * COST, request_count: 2 })
  expect(stored('tokens', tokenId)).toMatchObject({ remain_quota: 100_000 - 2 * COST, used_quota: 2 * COST })
  expect(stored('channels', channelId).used_quota).toBe(channelBefore + COST)
})

/** Run `fn` with the writer's timed batches held back, so what it sees was written by a repo's read or write. */
async function withBatchesHeld(fn: () => Promise<void>): Promise<void> {
  const held = spyOn(env.app.deps.repos, 'commitMetering').mockImplementation(() => {
    throw new Error('held by the test')
  })
  const error = spyOn(console, 'error').mockImplementation(() => {})
  try {
    await fn()
  } finally {
    held.mockRestore()
    error.mockRestore()
  }
}

test('the management API reads balances as the relay left them, before any batch was written', async () => {
  const { user, key } = await account(env, 1_000_000)
  const cookie = await login(env.app, user.username, USER_PASSWORD)
  await withBatchesHeld(async () => {
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
    await settled(env, 1)
    expect(stored('users', user.id).quota).toBe(1_000_000)
    // from the cached row, which the ledger moved in place
    const self = await call(env.app, 'GET', '/api/user/self', undefined, as(cookie))
    expect(self.body.data).toMatchObject({ quota: 1_000_000 - COST, used_quota: COST, request_count: 1 })
    // from SQLite: the list query wrote the pending deltas first
    const list = await call(env.app, 'GET', `/api/user/search?keyword=${user.username}`, undefined, as(rootCookie))
    expect(list.body.data.items).toEqual([expect.objectContaining({ id: user.id, quota: 1_000_000 - COST, used_quota: COST })])
    expect(stored('users', user.id).quota).toBe(1_000_000 - COST)
  })
})

test('an admin who sets a balance right after a request gets exactly that balance', async () => {
  const { user, key } = await account(env, 1_000_000)
  await withBatchesHeld(async () => {
    expect((await chat(env, key, chatBody('gpt-4o'))).status).toBe(200)
    await settled(env, 1)
    expect(stored('users', user.id).quota).toBe(1_000_000)
    const res = await call(env.app, 'POST', '/api/user/manage', { id: user.id, action: 'add_quota', mode: 'override', value: 5000 }, as(rootCookie))
    expect(res.status).toBe(200)
  })
  await env.app.deps.metering.logs.flush() // a later batch must not apply the earlier charge again
  expect(stored('users', user.id)).toMatchObject({ quota: 5000, used_quota: COST })
  expect((await env.app.deps.repos.users.findById(user.id))!.quota).toBe(5000)
})

test('concurrent requests against a small balance: served while it lasts, never below zero', async () => {
  // the estimate reserves (prompt + max_tokens 100 × 4) × 1.25 > 375 per request; 5,000 serves a handful
  const { user, key } = await account(env, 5000)
  const statuses = await Promise.all(Array.from({ length: 40 }, () => chat(env, key, chatBody('gpt-4o')).then((r) => r.status)))
  const served = statuses.filter((s) => s === 200).length
  expect(served).toBeGreaterThan(0)
  expect(statuses.filter((s) => s !== 200).every((s) => s === 403)).toBe(true)
  await settled(env, served)
  await env.app.deps.metering.logs.flush()
  expect(stored('users', user.id)).toMatchObject({ quota: 5000 - served * COST, used_quota: served * COST })
})
