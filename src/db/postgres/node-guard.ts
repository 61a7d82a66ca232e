import { SQL } from 'bun'
import { databaseOf } from './client'

/** The advisory lock every serving node holds (any fixed int8: only Tollgate's sessions ask for it; the migration lock is …001). */
const NODE_LOCK = 7_461_017_002

/** Another node's lock kind forbids this one: the message says what to change. */
export class NodeGuardError extends Error {}

export interface NodeGuard {
  /** whether this node still holds its lock (false after the guard connection broke and could not take it back) */
  readonly held: boolean
  release(): Promise<void>
}

export interface NodeGuardOptions {
  /** true when this node coordinates through Redis (REDIS_URL): such nodes share the lock */
  shared: boolean
  /** how often the guard connection is checked, and retaken if it broke (default 10 s) */
  heartbeatMs?: number
  /** told when the lock is lost or retaken */
  onChange?: (held: boolean, error?: unknown) => void
  /**
   * This node's id, as its quota holds carry it: the guard also holds the node's own lock, which tells every
   * node's sweep that this one is alive, so its holds stay while its renewals run late (migration 0010).
   */
  nodeId?: string
}

/**
 * Several nodes on one database must share their limits, caches and jobs through Redis; a node without it
 * assumes it is alone. So every serving node holds NODE_LOCK on a connection of its own for as long as it
 * runs: nodes with REDIS_URL hold it shared, a node without holds it exclusively. A second node without Redis
 * (or a node with Redis beside a lone one, or the reverse) is refused at start and the first keeps serving.
 * The lock is the registration: it ends with the connection, so a crashed node never blocks a restart. TCP
 * keepalives (about 25 s) end the connection of a machine that vanished without closing it.
 */
export async function takeNodeGuard(url: string, options: NodeGuardOptions): Promise<NodeGuard> {
  const open = () =>
    new SQL({
      url,
      adapter: 'postgres',
      database: databaseOf(url),
      max: 1,
      idleTimeout: 0,
      connectionTimeout: 10,
      connection: { application_name: 'tollgate-node-guard', tcp_keepalives_idle: 10, tcp_keepalives_interval: 5, tcp_keepalives_count: 3 },
    })
  const take = async (client: SQL): Promise<boolean> => {
    const fn = options.shared ? 'pg_try_advisory_lock_shared' : 'pg_try_advisory_lock'
    const [row] = (await client.unsafe(`SELECT ${fn}(${NODE_LOCK}) AS ok`)) as { ok: boolean }[]
    if (row?.ok !== true) return false
    // the node's own lock (the key migration 0010's sweep asks for): unique ids, so it is free unless this node holds it
    if (options.nodeId !== undefined) await client`SELECT pg_advisory_lock(hashtextextended(${`tollgate-node:${options.nodeId}`}, 0))`
    return true
  }

  let client = open()
  let ok: boolean
  try {
    ok = await take(client)
  } catch (error) {
    await client.close().catch(() => {})
    throw error
  }
  if (!ok) {
    await client.close().catch(() => {})
    throw new NodeGuardError(refusal(options.shared))
  }

  let held = true
  let stopped = false
  const heartbeat = setInterval(async () => {
    try {
      await client.unsafe('SELECT 1')
      return
    } catch (error) {
      if (stopped) return
      if (held) options.onChange?.(false, error)
      held = false
    }
    // the connection broke (the server restarted, a proxy dropped it): its lock went with it; take it back
    await client.close().catch(() => {})
    client = open()
    try {
      held = await take(client)
      if (held) options.onChange?.(true)
    } catch (error) {
      held = false
      options.onChange?.(false, error)
    }
  }, options.heartbeatMs ?? 10_000)
  heartbeat.unref()

  return {
    get held() {
      return held
    },
    async release() {
      stopped = true
      clearInterval(heartbeat)
      await client.close().catch(() => {})
    },
  }
}

function refusal(shared: boolean): string {
  return shared
    ? 'a Tollgate node without REDIS_URL is serving from this database and assumes it is alone: stop it, or restart it with the same REDIS_URL as this node, before nodes with REDIS_URL join'
    : 'another Tollgate node is serving from this database: several nodes must share their limits, caches and jobs through Redis. Set REDIS_URL (redis://host:6379/0) on every node and restart them; a single node needs no Redis'
}
