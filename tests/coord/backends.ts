/**
 * The two coordination backends under one face, so each behavioural test runs against both: `local` nodes are
 * instances sharing one in-memory store (as several nodes share one Redis), `redis` nodes are instances on one
 * throwaway redis-server, each test group under its own key prefix.
 */
import { afterAll, beforeAll, describe } from 'bun:test'
import { RedisClient } from 'bun'
import { createLocalCoordination } from '../../src/coord/local'
import { createLocalStore } from '../../src/coord/local-store'
import { createRedisCoordination } from '../../src/coord/redis'
import type { CoordOptions, Coordination } from '../../src/coord/types'
import { hasRedis, startRedis, type RedisServer } from '../helpers/redis-server'

export interface Backend {
  name: 'local' | 'redis'
  /** `n` nodes sharing one state; closed (abandoned) after the file */
  nodes(n: number, options?: CoordOptions): Promise<Coordination[]>
  /** one more node in the last `nodes()` group (one that starts later) */
  join(options?: CoordOptions): Promise<Coordination>
  /** redis only: the key prefix of the last `nodes()` group */
  prefix?(): string
  /** redis only: a plain client on the same server, to act behind the nodes' backs */
  raw?(): Promise<RedisClient>
}

let prefixes = 0
const opened: Coordination[] = []

let store = createLocalStore()

const local: Backend = {
  name: 'local',
  async join(options = {}) {
    const node = createLocalCoordination({ ...options, store })
    opened.push(node)
    return node
  },
  async nodes(n, options = {}) {
    store = createLocalStore()
    const nodes = Array.from({ length: n }, () => createLocalCoordination({ ...options, store }))
    opened.push(...nodes)
    return nodes
  },
}

export function redisBackend(server: () => RedisServer): Required<Backend> {
  let prefix = ''
  return {
    name: 'redis',
    async join(options = {}) {
      const node = await createRedisCoordination({ ...options, url: server().url, prefix })
      opened.push(node)
      return node
    },
    async nodes(n, options = {}) {
      prefix = `t${process.pid}-${++prefixes}:`
      const nodes = await Promise.all(Array.from({ length: n }, () => createRedisCoordination({ ...options, url: server().url, prefix })))
      opened.push(...nodes)
      return nodes
    },
    prefix: () => prefix,
    async raw() {
      const client = new RedisClient(server().url, { autoReconnect: false })
      await client.connect()
      return client
    },
  }
}

/** Run `suite` once per backend; Redis is started for the file (skipped without redis-server). */
export function forEachBackend(suite: (backend: Backend) => void): void {
  describe('local', () => {
    afterAll(() => Promise.all(opened.splice(0).map((n) => n.close('abandon'))))
    suite(local)
  })
  describe.skipIf(!hasRedis())('redis', () => {
    let server: RedisServer
    beforeAll(async () => {
      server = await startRedis()
    })
    afterAll(async () => {
      await Promise.all(opened.splice(0).map((n) => n.close('abandon')))
      await server.stop()
    })
    suite(redisBackend(() => server))
  })
}

/** Poll `probe` until it returns true, or fail after `ms`. */
export async function until(probe: () => boolean | Promise<boolean>, ms = 2000, what = 'condition'): Promise<number> {
  const start = performance.now()
  while (!(await probe())) {
    if (performance.now() - start > ms) throw new Error(`${what}: not within ${ms} ms`)
    await Bun.sleep(5)
  }
  return performance.now() - start
}

export const limits = (rpm: number, tpm: number, concurrency: number) => ({ rpm, tpm, concurrency })
export const scope = (key: string, l: ReturnType<typeof limits>, label = 'API key') => ({ key, label, limits: l })
