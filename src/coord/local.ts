import { randomUUID } from 'node:crypto'
import { leaseHandle, runExclusive, type LeaseHandle } from './lease-handle'
import type { Held } from './local-limits'
import { createLocalAffinity } from './local-affinity'
import { createLocalResponseHomes } from './local-response-homes'
import { createLocalStore, type LocalStore } from './local-store'
import { repeat } from './timers'
import { DEFAULTS, type AcquireResult, type CoordOptions, type Coordination, type Lease, type Permit, type ScopeRequest } from './types'

export interface LocalCoordination extends Coordination {
  /** the synchronous admission, for a caller that cannot wait (and for the Redis fallback) */
  acquireNow(requests: ScopeRequest[], estimateTokens: number): AcquireResult
}

const FREE: Permit = { release: () => Promise.resolve() }
const FREE_ADMIT: AcquireResult = { ok: true, permit: FREE }

/** Coordination inside this process: one node, its limits and caches its own (see local-store.ts). */
export function createLocalCoordination(options: CoordOptions & { store?: LocalStore } = {}): LocalCoordination {
  const store = options.store ?? createLocalStore()
  const instanceId = randomUUID()
  const permitTtl = options.permitTtlMs ?? DEFAULTS.permitTtlMs
  const since = Date.now()
  const open = new Set<Held>()
  const leases = new Set<LeaseHandle>()
  const heartbeats = new Map<string, () => void>()
  const unsubscribes = new Set<() => void>()
  let leaseSeq = 0

  const stopRenewing = repeat(permitTtl / 3, () => {
    const until = store.clock() + permitTtl
    for (const held of open) held.expiresAt = until
  })

  function acquireNow(requests: ScopeRequest[], estimateTokens: number): AcquireResult {
    const result = store.limits.acquire(requests, estimateTokens, permitTtl)
    if (!result.ok) return result
    if (result.held.released) return FREE_ADMIT
    const { held, release } = result
    open.add(held)
    return {
      ok: true,
      permit: {
        release(usedTokens) {
          open.delete(held)
          release(usedTokens)
          return Promise.resolve()
        },
      },
    }
  }

  async function tryAcquireLease(name: string, ttlMs: number): Promise<Lease | null> {
    const now = store.clock()
    const current = store.leases.get(name)
    if (current && current.expiresAt > now) return null
    const owner = `${instanceId}:${++leaseSeq}`
    store.leases.set(name, { owner, expiresAt: now + ttlMs })
    const ops = {
      async renew(): Promise<boolean> {
        const at = store.clock()
        const cur = store.leases.get(name)
        if (cur && cur.owner !== owner && cur.expiresAt > at) return false
        store.leases.set(name, { owner, expiresAt: at + ttlMs })
        return true
      },
      async release(): Promise<void> {
        if (store.leases.get(name)?.owner === owner) store.leases.delete(name)
      },
    }
    const handle = leaseHandle(name, ttlMs, ops, (h) => leases.delete(h))
    leases.add(handle)
    return handle.lease
  }

  const self: LocalCoordination = {
    instanceId,
    affinity: createLocalAffinity(store.clock),
    responses: createLocalResponseHomes(store.clock),
    acquireNow,
    acquire: (requests, estimateTokens) => Promise.resolve(acquireNow(requests, estimateTokens)),
    loginAttempt: (keys, backoff) => Promise.resolve(store.login.attempt(keys, backoff)),
    async loginSucceeded(ticket) {
      store.login.succeeded(ticket)
    },
    windowHit: (keys, limit, windowSeconds) => Promise.resolve(store.windows.hit(keys, limit, windowSeconds)),
    async publish(topic, payload) {
      store.publish(instanceId, topic, payload ?? null)
    },
    async subscribe(topic, handler) {
      // messages in one process cannot be missed: no version check needed
      const off = store.subscribe(topic, { instanceId, handler })
      unsubscribes.add(off)
      return () => {
        unsubscribes.delete(off)
        off()
      }
    },
    tryAcquireLease,
    runExclusive: (name, ttlMs, fn) => runExclusive(tryAcquireLease, name, ttlMs, fn),
    async register(nodeId, ttlMs = options.nodeTtlMs ?? DEFAULTS.nodeTtlMs) {
      heartbeats.get(nodeId)?.()
      const beat = () => void store.nodes.set(nodeId, store.clock() + ttlMs)
      beat()
      heartbeats.set(nodeId, repeat(ttlMs / 3, beat))
    },
    async liveNodes() {
      const now = store.clock()
      for (const [id, expiresAt] of store.nodes) if (expiresAt <= now) store.nodes.delete(id)
      return [...store.nodes.keys()].sort()
    },
    async channelFailure(channelId) {
      const count = (store.failures.get(channelId) ?? 0) + 1
      store.failures.set(channelId, count)
      return count
    },
    channelSuccess: (channelId) => void store.failures.delete(channelId),
    channelFailures: async (channelId) => store.failures.get(channelId) ?? 0,
    allChannelFailures: async () => new Map(store.failures),
    health: () => ({ backend: 'local', shared: false, degraded: false, since }),
    async close(mode = 'graceful') {
      stopRenewing()
      for (const off of unsubscribes) off()
      unsubscribes.clear()
      for (const [nodeId, stop] of heartbeats) {
        stop()
        if (mode === 'graceful') store.nodes.delete(nodeId)
      }
      heartbeats.clear()
      for (const handle of [...leases]) {
        if (mode === 'graceful') await handle.lease.release()
        else handle.abandon()
      }
    },
  }
  return self
}
