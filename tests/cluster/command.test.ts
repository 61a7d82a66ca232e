/**
 * A command run beside gateways that share a database (no gateway on this data directory's control socket): with
 * REDIS_URL its writes are published as a node's are, so the running node drops what it cached.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { as, login } from '../helpers/accounts'
import { startCluster, within, type Cluster } from '../helpers/cluster'
import { hasRedis, startRedis, type RedisServer } from '../helpers/redis-server'
import { call, type TestApp } from '../helpers/test-app'
import { tollgate } from '../ops/process'

let redis: RedisServer
let cluster: Cluster

describe.skipIf(!hasRedis())('a command beside a running node', () => {
  beforeAll(async () => {
    redis = await startRedis()
    cluster = await startCluster(redis, 1)
  })
  afterAll(async () => {
    await cluster?.stop()
    await redis?.stop()
  })

  test('reset-password ends the sessions the running node knows, within 1 s, and the access token', async () => {
    const node = cluster.nodes[0] as TestApp
    const cookie = await login(node, 'alice')
    expect((await call(node, 'GET', '/api/user/self', undefined, as(cookie))).status).toBe(200)
    const token = (await call(node, 'GET', '/api/user/token', undefined, as(cookie))).body.data as string
    const bearer = { authorization: `Bearer ${token}` }
    expect((await call(node, 'GET', '/api/user/self', undefined, bearer)).status).toBe(200)
    const reset = await tollgate(['reset-password', 'alice', '--data-dir', node.dataDir], { env: { REDIS_URL: redis.url }, stdin: 'reset-by-command-1\n' })
    expect([reset.code, reset.stderr]).toEqual([0, ''])
    await within(1000, performance.now(), 'the node ends the session', async () => (await call(node, 'GET', '/api/user/self', undefined, as(cookie))).status === 401)
    expect((await call(node, 'GET', '/api/user/self', undefined, bearer)).status).toBe(401)
    expect((await call(node, 'POST', '/api/user/login', { username: 'alice', password: 'reset-by-command-1' })).status).toBe(200)
  })
})
