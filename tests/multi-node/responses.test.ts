/**
 * Stored responses over two gateway processes on one PostgreSQL and Redis: a response created through one node is
 * retrieved, listed and deleted through the other, at the account and key that created it (the home is in Redis).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import { hasPostgres, startPostgres, type PgServer } from '../helpers/pg-server'
import { hasRedis, startRedis, type RedisServer } from '../helpers/redis-server'
import { login, ROOT_PASSWORD, startCluster, within, type Node } from './cluster'

const describeCluster = hasPostgres() && hasRedis() ? describe : describe.skip
const KEYS = ['sk-node-test-account-key-a-0123456789', 'sk-node-test-account-key-b-0123456789']

describeCluster('stored responses across two nodes', () => {
  let pg: PgServer
  let redis: RedisServer
  let nodes: Node[]
  let upstream: FakeUpstream
  let key: string

  beforeAll(async () => {
    ;[pg, redis, upstream] = await Promise.all([startPostgres(), startRedis(), startFakeUpstream({ keys: KEYS })])
    nodes = (await startCluster(pg, redis.url, 2)).nodes
    const root = await login(nodes[0]!.url, 'root', ROOT_PASSWORD)
    const token = await root.must('POST', '/api/token/', { name: 'responses', unlimited_quota: true })
    key = String(token.key).startsWith('sk-') ? String(token.key) : `sk-${token.key}`
    await root.must('POST', '/api/channel/', { type: 1, name: 'openai', key: KEYS.join('\n'), base_url: upstream.url, models: 'gpt-5', group: 'default' })
    const listed = async () => ((await (await fetch(`${nodes[1]!.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).json()) as any).data.some((m: { id: string }) => m.id === 'gpt-5')
    await within(5_000, listed, 'node 2 routes gpt-5')
  }, 120_000)

  afterAll(async () => {
    await Promise.all((nodes ?? []).map((n) => n.stop('SIGKILL')))
    await upstream?.stop()
    await Promise.all([pg?.stop(), redis?.stop()])
  })

  const call = (node: Node, method: string, path: string, body?: unknown) =>
    fetch(node.url + path, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })

  test('created on one node, each response is retrieved, listed and deleted on the other at the key that made it', async () => {
    for (let i = 0; i < 4; i++) {
      const [maker, other] = i % 2 === 0 ? [nodes[0]!, nodes[1]!] : [nodes[1]!, nodes[0]!]
      const created = await call(maker, 'POST', '/v1/responses', { model: 'gpt-5', input: `turn ${i}` })
      expect(created.status).toBe(200)
      const { id } = (await created.json()) as { id: string }
      const madeWith = upstream.storedResponses.get(id)!.key
      const before = upstream.requests.length
      const got = await call(other, 'GET', `/v1/responses/${id}`)
      expect(got.status).toBe(200)
      expect(((await got.json()) as { id: string }).id).toBe(id)
      expect((await call(other, 'GET', `/v1/responses/${id}/input_items`)).status).toBe(200)
      expect((await call(other, 'DELETE', `/v1/responses/${id}`)).status).toBe(200)
      expect(upstream.requests.slice(before).map((r) => r.headers.authorization)).toEqual(Array(3).fill(`Bearer ${madeWith}`))
      expect((await call(maker, 'GET', `/v1/responses/${id}`)).status).toBe(404) // forgotten by both nodes
    }
  }, 60_000)
})
