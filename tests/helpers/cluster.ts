/**
 * Several in-process gateways on one SQLite file and one throwaway Redis: nodes of one instance, as behind a load
 * balancer. The writer thread is off (two connections on one file commit their own batches). Each node has its own
 * caches, routing and coordination; what one writes the others learn through Redis (src/cluster). Two channels point
 * at two fake upstreams, so a test sees which one a node routes to.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Env } from '../../src/config'
import type { UserRow } from '../../src/db/repos'
import { seededRandom } from '../../src/relay/routing'
import { createToken } from '../../src/services/tokens/create-token'
import { addUser } from './accounts'
import { startFakeUpstream, type FakeUpstream } from './fake-upstreams'
import type { RedisServer } from './redis-server'
import { startTestApp, type TestApp } from './test-app'

export const MODEL = 'gpt-4o'

export interface Cluster {
  nodes: TestApp[]
  /** `primary` (priority 10) and `backup` (priority 0), each with its own upstream */
  channels: { primary: number; backup: number }
  upstreams: { primary: FakeUpstream; backup: FakeUpstream }
  user: UserRow
  /** an unlimited key of `user` */
  key: string
  newKey(): Promise<{ id: number; key: string }>
  /** the node dies as a crash would: its coordination abandoned (leases and registration lapse), then the app closed */
  crash(node: TestApp): Promise<void>
  /** close every node still open, the upstreams, and remove the data directory */
  stop(): Promise<void>
}

export async function startCluster(redis: RedisServer, count: number, env: Env = {}): Promise<Cluster> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-cluster-'))
  const nodeEnv = { REDIS_URL: redis.url, WRITER_THREAD: 'false', ...env }
  const first = await startTestApp(nodeEnv, undefined, dataDir)
  const primary = await startFakeUpstream()
  const backup = await startFakeUpstream()
  const channel = (name: string, upstream: FakeUpstream, priority: number) => ({
    type: 1,
    name,
    baseUrl: upstream.url,
    keyText: 'sk-upstream',
    models: MODEL,
    group: 'default',
    priority,
  })
  const [p, b] = await first.deps.routing.channels.create([channel('primary', primary, 10), channel('backup', backup, 0)])
  const user = await addUser(first, { username: 'alice', quota: 10_000_000 })
  // the others start on what the first wrote, as nodes joining a running instance
  const nodes = [first]
  for (let i = 1; i < count; i++) nodes.push(await startTestApp(nodeEnv, undefined, dataDir))
  for (const node of nodes) node.deps.routing.setRandom(seededRandom(42))
  const newKey = async () => {
    const { token, key } = await createToken(first.deps, { user, fields: { name: 'test', unlimited_quota: true } as never })
    return { id: token.id, key }
  }
  const closed = new Set<TestApp>()
  return {
    nodes,
    channels: { primary: p!.id, backup: b!.id },
    upstreams: { primary, backup },
    user,
    key: (await newKey()).key,
    newKey,
    async crash(node) {
      await node.deps.coord.close('abandon')
      closed.add(node)
      await node.close()
    },
    async stop() {
      for (const node of nodes) if (!closed.has(node)) closed.add(node), await node.close()
      await primary.stop()
      await backup.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export const chatTo = (node: TestApp, key: string): Promise<Response> =>
  node.fetch('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
  })

/**
 * Poll `probe` every 20 ms until it holds; answers the milliseconds it took from `since` (performance.now()), or
 * throws after `ms`.
 */
export async function within(ms: number, since: number, what: string, probe: () => Promise<boolean> | boolean): Promise<number> {
  for (;;) {
    if (await probe()) return performance.now() - since
    if (performance.now() - since > ms) throw new Error(`${what}: not within ${ms} ms`)
    await Bun.sleep(20)
  }
}
