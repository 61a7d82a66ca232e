/**
 * Two gateways on one database and one Redis: a write through either is in force on the other within 1 s of its
 * answer (issue #17), whatever the other had cached. Each test first makes node B cache what node A then changes, so without the
 * invalidation B would go on answering from its memory.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { RedisClient } from 'bun'
import { createToken } from '../../src/services/tokens/create-token'
import { addUser, as, login, USER_PASSWORD } from '../helpers/accounts'
import { chatTo, MODEL, startCluster, within, type Cluster } from '../helpers/cluster'
import { hasRedis, startRedis, type RedisServer } from '../helpers/redis-server'
import { call, type TestApp } from '../helpers/test-app'

let redis: RedisServer
let cluster: Cluster
let a: TestApp
let b: TestApp
let root: string

describe.skipIf(!hasRedis())('two nodes', () => {
  beforeAll(async () => {
    redis = await startRedis()
    cluster = await startCluster(redis, 2)
    ;[a, b] = cluster.nodes as [TestApp, TestApp]
    root = await login(a)
  })
  afterAll(async () => {
    await cluster?.stop()
    await redis?.stop()
  })

  const self = async (node: TestApp, cookie: string) => (await call(node, 'GET', '/api/user/self', undefined, as(cookie))).status

  test('a token deleted through node A is refused by node B within 1 s', async () => {
    const { id, key } = await cluster.newKey()
    expect((await chatTo(b, key)).status).toBe(200)
    const alice = await login(a, 'alice')
    expect((await call(a, 'DELETE', `/api/token/${id}`, undefined, as(alice))).status).toBe(200)
    const start = performance.now()
    await within(1000, start, 'node B refuses the deleted key', async () => (await chatTo(b, key)).status === 401)
  })

  test('a token disabled through node A is refused by node B within 1 s, and serves again once enabled', async () => {
    const { id, key } = await cluster.newKey()
    expect((await chatTo(b, key)).status).toBe(200)
    const alice = await login(a, 'alice')
    expect((await call(a, 'PUT', '/api/token/?status_only=true', { id, status: 2 }, as(alice))).status).toBe(200)
    let start = performance.now()
    await within(1000, start, 'node B refuses the disabled key', async () => (await chatTo(b, key)).status === 401)
    expect((await call(a, 'PUT', '/api/token/?status_only=true', { id, status: 1 }, as(alice))).status).toBe(200)
    start = performance.now()
    await within(1000, start, 'node B serves the enabled key', async () => (await chatTo(b, key)).status === 200)
  })

  test('a channel disabled through node A gets no traffic from node B within 1 s', async () => {
    const { primary, backup } = cluster.upstreams
    expect((await chatTo(b, cluster.key)).status).toBe(200)
    expect(primary.requests.length).toBeGreaterThan(0)
    expect((await call(a, 'PUT', '/api/channel/', { id: cluster.channels.primary, status: 2 }, as(root))).status).toBe(200)
    const start = performance.now()
    await within(1000, start, 'node B routes to the backup channel', async () => {
      const before = backup.requests.length
      expect((await chatTo(b, cluster.key)).status).toBe(200)
      return backup.requests.length > before
    })
    const primaryBefore = primary.requests.length
    for (let i = 0; i < 10; i++) expect((await chatTo(b, cluster.key)).status).toBe(200)
    expect(primary.requests.length).toBe(primaryBefore)
    expect(b.deps.routing.channels.get(cluster.channels.primary)!.status).toBe(2)

    expect((await call(a, 'PUT', '/api/channel/', { id: cluster.channels.primary, status: 1 }, as(root))).status).toBe(200)
    const again = performance.now()
    await within(1000, again, 'node B routes to the re-enabled primary', async () => {
      const before = primary.requests.length
      await chatTo(b, cluster.key)
      return primary.requests.length > before
    })
  })

  test('a channel created through node A routes on node B; deleted, it is gone there too', async () => {
    const created = await call(a, 'POST', '/api/channel/', {
      mode: 'single',
      channel: { type: 1, name: 'late', key: 'sk-late', base_url: cluster.upstreams.backup.url, models: 'late-model', group: 'default' },
    }, as(root))
    expect(created.status).toBe(200)
    const id = b.deps.routing.channels.all().find((c) => c.name === 'late')?.id ?? (await waitForChannel(b, 'late'))
    expect(b.deps.routing.channels.get(id)!.keys).toEqual(['sk-late'])
    expect((await call(a, 'DELETE', `/api/channel/${id}`, undefined, as(root))).status).toBe(200)
    const start = performance.now()
    await within(1000, start, 'node B drops the deleted channel', () => b.deps.routing.channels.get(id) === undefined)
    expect(await b.deps.routing.planRoute('default', 'late-model')).toEqual([])
  })

  test('an option changed through node A is in force on node B within 1 s', async () => {
    expect((await call(a, 'PUT', '/api/option/', { key: 'TokenRpmLimit', value: 2 }, as(root))).status).toBe(200)
    const start = performance.now()
    // a fresh key each round: two requests a minute pass, the third is refused once B knows the limit
    await within(1000, start, 'node B applies TokenRpmLimit', async () => {
      const { key } = await cluster.newKey()
      const codes = [(await chatTo(b, key)).status, (await chatTo(b, key)).status, (await chatTo(b, key)).status]
      return codes.join() === '200,200,429'
    })
    expect((await call(a, 'PUT', '/api/option/', { key: 'TokenRpmLimit', value: 0 }, as(root))).status).toBe(200)
    await within(1000, performance.now(), 'node B lifts the limit', () => b.deps.options.get<number>('TokenRpmLimit') === 0)
  })

  test('a user disabled through node A: node B refuses their key and their session within 1 s', async () => {
    const cookie = await login(b, 'alice')
    expect((await chatTo(b, cluster.key)).status).toBe(200)
    expect(await self(b, cookie)).toBe(200)
    expect((await call(a, 'POST', '/api/user/manage', { id: cluster.user.id, action: 'disable' }, as(root))).status).toBe(200)
    const start = performance.now()
    await within(1000, start, 'node B refuses the disabled user', async () => {
      const res = await chatTo(b, cluster.key)
      return res.status === 401 && ((await res.json()) as any).error.message.includes('disabled')
    })
    expect(await self(b, cookie)).toBe(401)
    expect((await call(a, 'POST', '/api/user/manage', { id: cluster.user.id, action: 'enable' }, as(root))).status).toBe(200)
    const again = performance.now()
    await within(1000, again, 'node B serves the enabled user', async () => (await chatTo(b, cluster.key)).status === 200)
  })

  test('a user moved out of a group through node A: node B refuses their key for that group within 1 s', async () => {
    const vera = await addUser(a, { username: 'vera', group: 'vip', quota: 1_000_000 })
    await a.deps.routing.channels.create([{ type: 1, name: 'vip-lane', baseUrl: cluster.upstreams.primary.url, keyText: 'sk-upstream', models: MODEL, group: 'vip' }])
    await waitForChannel(b, 'vip-lane')
    const { key } = await createToken(a.deps, { user: vera, fields: { name: 'vip', unlimited_quota: true, group: 'vip' } })
    expect((await chatTo(b, key)).status).toBe(200)
    expect((await call(a, 'PUT', '/api/user/', { id: vera.id, group: 'default' }, as(root))).status).toBe(200)
    const start = performance.now()
    await within(1000, start, 'node B refuses the key of the group its owner left', async () => {
      const res = await chatTo(b, key)
      return res.status === 403 && ((await res.json()) as any).error.code === 'group_not_allowed'
    })
  })

  test('log out everywhere through node A ends the sessions on node B within 1 s', async () => {
    const onA = await login(a, 'alice')
    const onB = await login(b, 'alice')
    expect(await self(b, onB)).toBe(200)
    expect((await call(a, 'POST', '/api/user/logout_all', undefined, as(onA))).status).toBe(200)
    await within(1000, performance.now(), 'node B ends the session', async () => (await self(b, onB)) === 401)
  })

  test('a top-up through node A is spendable on node B', async () => {
    const before = (await call(b, 'GET', '/api/user/self', undefined, as(await login(b, 'alice')))).body.data.quota as number
    expect((await call(a, 'POST', '/api/user/manage', { id: cluster.user.id, action: 'add_quota', value: 12_345 }, as(root))).status).toBe(200)
    await within(1000, performance.now(), 'node B sees the new balance', () => b.deps.repos.users.cachedById(cluster.user.id)?.quota !== before || b.deps.repos.users.cachedById(cluster.user.id) === undefined)
    const row = await b.deps.repos.users.findById(cluster.user.id)
    expect(row!.quota).toBe(before + 12_345)
  })

  test('a plan granted through node A: node B, which remembered the user as holding none, sees it within 1 s', async () => {
    const user = await addUser(a, { username: 'planless' })
    const now = () => Math.floor(Date.now() / 1000)
    expect(await b.deps.repos.subscriptions.spendable(user.id, now())).toEqual([]) // node B now remembers: no plan
    const plan = await a.deps.repos.subscriptions.insertPlan({ title: 'Pro', priceCents: 0, durationUnit: 'day', durationValue: 1, totalAmount: 0 })
    expect((await call(a, 'POST', '/api/subscription/admin/bind', { user_id: user.id, plan_id: plan.id }, as(root))).body.success).toBe(true)
    await within(1000, performance.now(), 'node B sees the plan', async () => (await b.deps.repos.subscriptions.spendable(user.id, now())).length === 1)
  })

  test("a plan's upgrade group granted and cancelled through node A: node B, which cached the user, reads each group within 1 s", async () => {
    const user = await addUser(a, { username: 'climber' })
    await a.deps.options.set('GroupRatio', { default: 1, vip: 2 })
    const plan = await a.deps.repos.subscriptions.insertPlan({ title: 'VIP', priceCents: 0, durationUnit: 'day', durationValue: 1, totalAmount: 0, upgradeGroup: 'vip' })
    const groupOnB = async () => (await b.deps.repos.users.findById(user.id))!.group
    expect(await groupOnB()).toBe('default') // node B now has the row cached
    const granted = await call(a, 'POST', '/api/subscription/admin/bind', { user_id: user.id, plan_id: plan.id }, as(root))
    expect(granted.body.success).toBe(true)
    await within(1000, performance.now(), 'node B reads vip', async () => (await groupOnB()) === 'vip')
    expect((await call(a, 'POST', `/api/subscription/admin/user_subscriptions/${granted.body.data.subscription.id}/invalidate`, {}, as(root))).status).toBe(200)
    await within(1000, performance.now(), 'node B reads default again', async () => (await groupOnB()) === 'default')
  })

  test('a logout through node A rejects that cookie on node B within 1 s; other sessions stay', async () => {
    const cookie = await login(a, 'alice')
    const other = await login(b, 'alice')
    expect(await self(b, cookie)).toBe(200)
    expect((await call(a, 'GET', '/api/user/logout', undefined, as(cookie))).status).toBe(200)
    const start = performance.now()
    await within(1000, start, 'node B rejects the logged-out cookie', async () => (await self(b, cookie)) === 401)
    expect(await self(b, other)).toBe(200)
    expect(await self(a, other)).toBe(200)
  })

  test('a missed message: the version check reloads within 1 s', async () => {
    const { id, key } = await cluster.newKey()
    expect((await chatTo(b, key)).status).toBe(200)
    // disabled behind the nodes' backs (no message), then the topic's version bumped as a lost PUBLISH would leave it
    a.db.$client.run('UPDATE tokens SET status = 2 WHERE id = ?', [id])
    const raw = new RedisClient(redis.url)
    await raw.send('INCR', ['tollgate:ver:tokens'])
    raw.close()
    const start = performance.now()
    await within(1000, start, 'node B reloads its tokens', async () => (await chatTo(b, key)).status === 401)
  })

  test('a password change through node A ends the sessions on node B within 1 s', async () => {
    const onA = await login(a, 'alice')
    const onB = await login(b, 'alice')
    expect(await self(b, onB)).toBe(200)
    const changed = await call(a, 'PUT', '/api/user/self', { password: 'a-new-password-456', original_password: USER_PASSWORD }, as(onA))
    expect(changed.status).toBe(200)
    const start = performance.now()
    await within(1000, start, 'node B ends the old session', async () => (await self(b, onB)) === 401)
    expect((await call(b, 'POST', '/api/user/login', { username: 'alice', password: 'a-new-password-456' })).status).toBe(200)
  })
})

async function waitForChannel(node: TestApp, name: string): Promise<number> {
  let id: number | undefined
  await within(1000, performance.now(), `node sees channel ${name}`, () => (id = node.deps.routing.channels.all().find((c) => c.name === name)?.id) !== undefined)
  return id!
}
