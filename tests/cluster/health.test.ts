/**
 * Channel health across two gateways on one database and one Redis: consecutive failures add up whichever node saw
 * them, the auto-disable that the last one triggers holds on both, and a dead key of a pool leaves the rotation of
 * both.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chatTo, startCluster, within, type Cluster } from '../helpers/cluster'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import { hasRedis, startRedis, type RedisServer } from '../helpers/redis-server'
import type { TestApp } from '../helpers/test-app'

let redis: RedisServer
let cluster: Cluster
let a: TestApp
let b: TestApp

describe.skipIf(!hasRedis())('two nodes', () => {
  beforeAll(async () => {
    redis = await startRedis()
    cluster = await startCluster(redis, 2)
    ;[a, b] = cluster.nodes as [TestApp, TestApp]
  })
  afterAll(async () => {
    await cluster?.stop()
    await redis?.stop()
  })

  const failures = (node: TestApp, id: number) => node.deps.coord.channelFailures(id)
  const metricOf = async (node: TestApp, id: number) => {
    const text = await (await node.fetch('/metrics')).text()
    return Number(new RegExp(`^tollgate_channel_consecutive_failures\\{[^}]*channel="${id}"[^}]*\\} (\\d+)$`, 'm').exec(text)?.[1])
  }

  test('failures counted on either node add up; the third auto-disables the channel on both', async () => {
    const { primary, backup } = cluster.upstreams
    const id = cluster.channels.primary
    primary.setBehavior({ error: { status: 500, message: 'overloaded' } })
    // each request fails on the primary and is served by the backup
    expect((await chatTo(a, cluster.key)).status).toBe(200)
    await within(1000, performance.now(), 'one failure counted', async () => (await failures(b, id)) === 1)
    // node B's /metrics names the channel once its channel cache has it (the load or the invalidation may lag)
    await within(5000, performance.now(), "one failure in B's /metrics", async () => (await metricOf(b, id)) === 1)
    expect((await chatTo(b, cluster.key)).status).toBe(200)
    await within(1000, performance.now(), 'two failures counted', async () => (await failures(a, id)) === 2)
    expect(a.deps.routing.channels.get(id)!.status).toBe(1)
    expect(b.deps.routing.channels.get(id)!.status).toBe(1)

    expect((await chatTo(a, cluster.key)).status).toBe(200)
    const start = performance.now()
    await within(1000, start, 'disabled on both', () => a.deps.routing.channels.get(id)!.status === 3 && b.deps.routing.channels.get(id)!.status === 3)
    expect((await a.deps.repos.channels.findById(id))!.status).toBe(3)
    const seen = primary.requests.length
    for (let i = 0; i < 4; i++) expect((await chatTo(i % 2 ? a : b, cluster.key)).status).toBe(200)
    expect(primary.requests.length).toBe(seen)
    expect(backup.requests.length).toBeGreaterThanOrEqual(7)

    // a success on the re-enabled channel starts the count again, on every node
    primary.setBehavior({})
    await a.deps.routing.channels.setStatus([id], 1)
    await within(1000, performance.now(), 'enabled on B', () => b.deps.routing.channels.get(id)!.status === 1)
    expect((await chatTo(b, cluster.key)).status).toBe(200)
    await within(1000, performance.now(), 'the count is reset', async () => (await failures(a, id)) === 0)
  })

  describe('a pool of keys', () => {
    let pool: FakeUpstream
    let id: number
    beforeAll(async () => {
      pool = await startFakeUpstream({ keys: ['sk-live'] })
      const [channel] = await a.deps.routing.channels.create([
        { type: 1, name: 'pool', baseUrl: pool.url, keyText: 'sk-dead\nsk-live', models: 'pool-model', group: 'default' },
      ])
      id = channel!.id
      await within(1000, performance.now(), 'B has the pool', () => b.deps.routing.channels.get(id) !== undefined)
    })
    afterAll(() => pool?.stop())

    const poolChat = (node: TestApp) =>
      node.fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `Bearer ${cluster.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'pool-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
      })
    const keysSent = () => pool.requests.map((r) => r.headers.authorization)

    test('a key that node A found dead leaves the rotation of node B', async () => {
      // A's first turn is the dead key: the upstream refuses it, A takes it out of its rotation
      await poolChat(a)
      expect(keysSent()).toContain('Bearer sk-dead')
      // the failure is recorded behind the answer
      await within(1000, performance.now(), 'A skips the dead key', () => a.deps.routing.keyOutOfRotation(id, 'sk-dead'))
      await within(1000, performance.now(), 'B skips the dead key', () => b.deps.routing.keyOutOfRotation(id, 'sk-dead'))
      const before = pool.requests.length
      for (let i = 0; i < 4; i++) expect((await poolChat(b)).status).toBe(200)
      expect(keysSent().slice(before)).toEqual(Array(4).fill('Bearer sk-live'))
      expect(b.deps.routing.channels.get(id)!.status).toBe(1)
    })
  })
})
