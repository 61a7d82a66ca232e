/**
 * Three gateways on one database and one Redis: each background job (channel probe, log retention, session pruning, plans' group sweep,
 * the upstream model check)
 * runs on exactly one of them, stays there while it lives, and moves to another when that node dies (its lease
 * abandoned, as a crash leaves it). JOB_LEASE_SECONDS 0.6: a dead holder's jobs move within 0.6 s plus one try.
 */
import { RedisClient } from 'bun'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startCluster, within, type Cluster } from '../helpers/cluster'
import { hasRedis, startRedis, type RedisServer } from '../helpers/redis-server'
import type { TestApp } from '../helpers/test-app'

const JOBS = ['channel-probe', 'log-retention', 'session-prune', 'plan-group-sweep', 'upstream-model-check']

let redis: RedisServer
let cluster: Cluster
let crashed: TestApp | undefined

const holders = (nodes: TestApp[], job: string) => nodes.filter((node) => node.deps.jobs.held.includes(job))

describe.skipIf(!hasRedis())('three nodes', () => {
  beforeAll(async () => {
    redis = await startRedis()
    cluster = await startCluster(redis, 3, { JOB_LEASE_SECONDS: '0.6' })
  })
  afterAll(async () => {
    await cluster?.stop()
    await redis?.stop()
  })

  test('each job runs on exactly one node, and stays there while it lives', async () => {
    const nodes = cluster.nodes
    await within(10_000, performance.now(), 'every job has a holder', () => JOBS.every((job) => holders(nodes, job).length === 1)) // a hang detector
    const first = JOBS.map((job) => holders(nodes, job)[0])
    // several lease periods later: the same holders, never two at once
    const until = performance.now() + 1500
    while (performance.now() < until) {
      for (const job of JOBS) expect(holders(nodes, job)).toHaveLength(1)
      await Bun.sleep(50)
    }
    expect(JOBS.map((job) => holders(nodes, job)[0])).toEqual(first)
    // the probe's own timer runs on its holder only
    expect(nodes.filter((node) => node.deps.routing.probe.running)).toEqual(holders(nodes, 'channel-probe'))
  }, 30_000)

  test('when the holder dies, its jobs move to one of the others', async () => {
    const [holder] = holders(cluster.nodes, 'channel-probe') as [TestApp]
    const moved = JOBS.filter((job) => holders(cluster.nodes, job)[0] === holder)
    await cluster.crash((crashed = holder))
    const rest = cluster.nodes.filter((node) => node !== holder)
    // a hang detector (about 13× the 0.6 s lapse plus one try); the order that matters is asserted below
    const ms = await within(10_000, performance.now(), 'the jobs have a new holder', () => moved.every((job) => holders(rest, job).length === 1))
    // not before the dead node's lease lapsed: it was abandoned, not given back
    expect(ms).toBeGreaterThan(300)
    for (const job of JOBS) expect(holders(rest, job)).toHaveLength(1)
    expect(rest.filter((node) => node.deps.routing.probe.running)).toEqual(holders(rest, 'channel-probe'))
  }, 30_000) // bun 1.4.5 ignores bunfig's timeout: without this 5 s would cap the hang detectors

  test('a node that stops its jobs gracefully gives them back at once', async () => {
    const alive = cluster.nodes.filter((node) => node !== crashed)
    const [holder] = holders(alive, 'log-retention') as [TestApp]
    const others = alive.filter((node) => node !== holder)
    const raw = new RedisClient(redis.url)
    try {
      const [key] = (await raw.send('KEYS', ['*lease:job:log-retention'])) as string[]
      const owner = await raw.get(key!)
      expect(owner).toBeString()
      await holder.deps.jobs.stop()
      expect(holder.deps.jobs.held).toEqual([])
      // given back, not abandoned: the holder's lease is gone from Redis the moment stop() returns (an abandoned
      // one would keep its owner until it lapsed), so the next node takes it at its next try, whatever the clock
      expect(await raw.get(key!)).not.toBe(owner)
    } finally {
      raw.close()
    }
    await within(5000, performance.now(), 'another node holds log-retention', () => holders(others, 'log-retention').length === 1) // a hang detector
  })
})
