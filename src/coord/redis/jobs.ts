import { leaseHandle, type LeaseHandle } from '../lease-handle'
import type { LocalCoordination } from '../local'
import { repeat } from '../timers'
import type { Lease } from '../types'
import type { RedisLink } from './link'
import { LEASE_RELEASE, LEASE_RENEW, NODE_BEAT, NODE_LIST } from './scripts'

/**
 * Job leases (`SET NX PX`, renewed and released only by their owner) and the node registry (a sorted set of node
 * ids by heartbeat expiry, in server time). While Redis is away a node acts alone, as it does for limits: it may
 * take a lease provisionally (exclusive within this node), and the renewal after Redis returns keeps it only if no
 * other node took it meanwhile; otherwise the lease is lost and its `lost` signal aborts.
 */
export function createRedisJobs(link: RedisLink, fallback: LocalCoordination, prefix: string, instanceId: string) {
  const leases = new Set<LeaseHandle>()
  const heldNames = new Set<string>()
  const beats = new Map<string, () => void>()
  const nodesKey = `${prefix}nodes`
  let seq = 0

  async function tryAcquireLease(name: string, ttlMs: number): Promise<Lease | null> {
    if (heldNames.has(name)) return null
    const key = `${prefix}lease:${name}`
    const owner = `${instanceId}:${++seq}`
    if (link.up) {
      const taken = await link.send('SET', [key, owner, 'NX', 'PX', String(ttlMs)]).catch(() => (link.up ? null : 'OK'))
      if (taken !== 'OK' || heldNames.has(name)) return null
    }
    heldNames.add(name)
    const ops = {
      async renew(): Promise<boolean> {
        if (!link.up) return true // held provisionally until Redis can say
        return link.eval(LEASE_RENEW, [key], [owner, ttlMs]).then(
          (reply) => reply === 1,
          () => true,
        )
      },
      async release(): Promise<void> {
        if (link.up) await link.eval(LEASE_RELEASE, [key], [owner]).catch(() => {})
      },
    }
    const handle = leaseHandle(name, ttlMs, ops, (h) => {
      leases.delete(h)
      heldNames.delete(name)
    })
    leases.add(handle)
    return handle.lease
  }

  async function register(nodeId: string, ttlMs: number): Promise<void> {
    beats.get(nodeId)?.()
    await fallback.register(nodeId, ttlMs)
    const beat = () => (link.up ? link.eval(NODE_BEAT, [nodesKey], [nodeId, ttlMs]).catch(() => {}) : undefined)
    await beat()
    beats.set(nodeId, repeat(ttlMs / 3, beat))
  }

  async function liveNodes(): Promise<string[]> {
    if (!link.up) return fallback.liveNodes()
    try {
      return ((await link.eval(NODE_LIST, [nodesKey], [])) as string[]).sort()
    } catch {
      return fallback.liveNodes()
    }
  }

  async function close(mode: 'graceful' | 'abandon'): Promise<void> {
    for (const stop of beats.values()) stop()
    if (mode === 'graceful' && beats.size > 0 && link.up) await link.send('ZREM', [nodesKey, ...beats.keys()]).catch(() => {})
    beats.clear()
    for (const handle of [...leases]) {
      if (mode === 'graceful') await handle.lease.release()
      else handle.abandon()
    }
  }

  return { tryAcquireLease, register, liveNodes, close }
}
