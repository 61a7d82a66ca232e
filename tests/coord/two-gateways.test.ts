/**
 * Two gateways (each its own SQLite database and fake upstream) on one throwaway Redis: the rate limits are
 * shared, and when Redis goes away both keep serving on their own limits and say so in /api/status.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { chat, chatBody } from '../metering/env'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'
import { hasRedis, startRedis, type RedisServer } from '../helpers/redis-server'
import { until } from '../helpers/wait'

let redis: RedisServer
const nodes: RelayEnv[] = []

beforeAll(async () => {
  redis = await startRedis()
  for (let i = 0; i < 2; i++) {
    const env = await startRelayEnv({ REDIS_URL: redis.url })
    await env.addChannel({ type: 1, models: 'gpt-4o' })
    await env.app.deps.options.set('TokenRpmLimit', 30)
    nodes.push(env)
  }
  // the same user and key ids on both databases, so both gateways name the same scopes
  expect(nodes[0]!.user.id).toBe(nodes[1]!.user.id)
})
afterAll(async () => {
  for (const env of nodes) await env.stop()
  await redis?.stop()
})

const status = async (env: RelayEnv) => ((await (await env.app.fetch('/api/status')).json()) as any).data.coordination

test.skipIf(!hasRedis())('an RPM limit of 30 admits exactly 30 of 60 requests spread over two gateways', async () => {
  expect(await status(nodes[0]!)).toEqual({ backend: 'redis', shared: true, degraded: false })
  // ten rounds of six, three to each gateway (well within two seconds: the bucket refills one every two)
  const results: Response[] = []
  for (let round = 0; round < 10; round++) {
    results.push(...(await Promise.all(Array.from({ length: 6 }, (_, i) => chat(nodes[i % 2]!, nodes[i % 2]!.key, chatBody('gpt-4o'))))))
  }
  const codes = results.map((r) => r.status)
  expect(codes.filter((c) => c === 200)).toHaveLength(30)
  expect(codes.filter((c) => c === 429)).toHaveLength(30)
  const refused = results.find((r) => r.status === 429)!
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  expect(((await refused.json()) as any).error.message).toContain('30 requests per minute')
  // both gateways served some: neither admitted 30 on its own
  expect(nodes[0]!.upstream.requests.length + nodes[1]!.upstream.requests.length).toBe(30)
  expect(nodes[0]!.upstream.requests.length).toBeGreaterThan(0)
  expect(nodes[1]!.upstream.requests.length).toBeGreaterThan(0)
})

test.skipIf(!hasRedis())('with Redis gone, both keep serving on their own limits and /api/status says degraded', async () => {
  await redis.kill()
  for (const env of nodes) {
    // the shared bucket is empty; this node's own one is not, so it serves as soon as it sees Redis gone
    let code = 0
    await until(async () => (code = (await chat(env, env.key, chatBody('gpt-4o'))).status) === 200, { what: 'served without Redis' })
    expect(code).toBe(200)
    expect(await status(env)).toEqual({ backend: 'redis', shared: false, degraded: true })
  }
  // the local limit still holds: 30 per node
  const more = await Promise.all(Array.from({ length: 40 }, () => chat(nodes[0]!, nodes[0]!.key, chatBody('gpt-4o'))))
  expect(more.filter((r) => r.status === 200)).toHaveLength(29)
})
