/**
 * Tasks across nodes: two gateway processes on one PostgreSQL and Redis poll the same Midjourney tasks. Each task is
 * polled by one node at a time (never twice within a poll interval), each is charged once at submit and a failed one
 * refunded once; when a node is killed with SIGKILL its tasks are finished by the other once their leases lapse.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFakeMidjourney } from '../helpers/fake-upstreams/midjourney-proxy'
import { hasPostgres, startPostgres, type PgServer } from '../helpers/pg-server'
import { hasRedis, startRedis, type RedisServer } from '../helpers/redis-server'
import { login, ROOT_PASSWORD, startCluster, within, type Api, type Node } from './cluster'

const describeCluster = hasPostgres() && hasRedis() ? describe : describe.skip
const SECRET = 'mj-cluster-secret-0123456789'
const PRICE = 0.1 * 500_000

describeCluster('Midjourney tasks polled by two nodes', () => {
  let pg: PgServer
  let redis: RedisServer
  let mj: Awaited<ReturnType<typeof startFakeMidjourney>>
  let nodes: Node[] = []
  let root: Api
  let key = ''
  const pollTimes = new Map<string, number[]>()

  beforeAll(async () => {
    ;[pg, redis] = await Promise.all([startPostgres(), startRedis()])
    mj = await startFakeMidjourney(SECRET)
    // when each task was polled, to find two polls of one task closer than the interval
    const poll = mj.store.poll
    mj.store.poll = (ids) => {
      for (const id of ids) pollTimes.set(id, [...(pollTimes.get(id) ?? []), performance.now()])
      return poll(ids)
    }
    nodes = (await startCluster(pg, redis.url, 2)).nodes
    root = await login(nodes[0]!.url, 'root', ROOT_PASSWORD)
    for (const [k, value] of Object.entries({ TaskPollIntervalSeconds: 1, TaskLeaseSeconds: 3 })) await root.must('PUT', '/api/option/', { key: k, value })
    await root.must('POST', '/api/channel/', { type: 2, name: 'mj', key: SECRET, base_url: mj.url, models: 'mj_imagine', group: 'default', auto_ban: 0 })
    const token = await root.must('POST', '/api/token/', { name: 'mj', unlimited_quota: true })
    key = String(token.key).startsWith('sk-') ? String(token.key) : `sk-${token.key}`
  }, 120_000)
  afterAll(async () => {
    for (const node of nodes) await node.stop('SIGKILL')
    mj?.stop()
    await redis?.stop()
    await pg?.stop()
  })

  const imagine = async (node: Node, prompt: string): Promise<string> => {
    const response = await fetch(`${node.url}/mj/submit/imagine`, { method: 'POST', headers: { 'mj-api-secret': key, 'content-type': 'application/json' }, body: JSON.stringify({ prompt }) })
    const body = (await response.json()) as { code: number; result: string }
    if (body.code !== 1) throw new Error(`imagine on ${node.name}: ${response.status} ${JSON.stringify(body)}`)
    return body.result
  }
  const statusOf = async (node: Node, id: string) => ((await (await fetch(`${node.url}/mj/task/${id}/fetch`, { headers: { 'mj-api-secret': key } })).json()) as { status: string }).status
  const quota = async () => (await root.must('GET', '/api/user/self')).quota as number

  test('20 tasks on two nodes: each polled by one node at a time, charged once, the failed ones refunded once', async () => {
    const before = await quota()
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => imagine(nodes[i % 2]!, i % 5 === 0 ? `slow fail ${i}` : `slow ${i}`)))
    await within(60_000, async () => (await Promise.all(ids.map((id) => statusOf(nodes[0]!, id)))).every((s) => s === 'SUCCESS' || s === 'FAILURE'), 'every task ended')
    for (const id of ids) {
      const times = pollTimes.get(id)!
      // five polls end a slow task; an ended task is not polled again
      expect(times).toHaveLength(5)
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThan(800)
    }
    const failed = ids.filter((_, i) => i % 5 === 0).length
    await within(10_000, async () => before - (await quota()) === (ids.length - failed) * PRICE, 'charges and refunds written')
    const refunds = await root.must('GET', '/api/log/?type=4&page_size=100')
    expect(refunds.items.filter((row: { content: string }) => ids.some((id) => row.content.includes(id)))).toHaveLength(failed)
  }, 120_000)

  test("a killed node's tasks are finished by the other", async () => {
    const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => imagine(nodes[i % 2]!, `slow after kill ${i}`)))
    await within(20_000, async () => ids.every((id) => (pollTimes.get(id)?.length ?? 0) >= 1), 'every task polled once')
    await nodes[0]!.stop('SIGKILL')
    const survivor = nodes[1]!
    await within(60_000, async () => (await Promise.all(ids.map((id) => statusOf(survivor, id)))).every((s) => s === 'SUCCESS'), 'every task finished on the survivor')
  }, 120_000)
})
