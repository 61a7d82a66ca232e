import type { LocalCoordination } from '../local'
import { repeat } from '../timers'
import type { AcquireResult, LimitKind, Permit, ScopeRequest } from '../types'
import type { RedisLink } from './link'
import { ACQUIRE, RELEASE, RENEW } from './scripts'

interface Open {
  leaseKeys: string[]
  leaseId: string
}

const FREE: AcquireResult = { ok: true, permit: { release: () => Promise.resolve() } }
const RENEW_BATCH = 500

const limited = (r: ScopeRequest): boolean => r.limits.rpm > 0 || r.limits.tpm > 0 || r.limits.concurrency > 0

/**
 * Rate limits in Redis: one ACQUIRE script checks and takes every scope at once (so 30 per minute admits 30 across
 * all nodes), each admitted request holds a lease in every scope's lease set, renewed by this node every third of
 * its TTL in one script per 500 leases; a node that dies stops renewing and its slots lapse. When Redis cannot
 * answer, the node's own limits (`fallback`) decide, and their permits are released there.
 */
export function createRedisLimits(link: RedisLink, fallback: LocalCoordination, prefix: string, instanceId: string, ttlMs: number) {
  const open = new Set<Open>()
  let seq = 0

  const stopRenewing = repeat(ttlMs / 3, async () => {
    if (!link.up || open.size === 0) return
    const all = [...open]
    for (let i = 0; i < all.length; i += RENEW_BATCH) {
      const keys: string[] = []
      const ids: string[] = []
      for (const o of all.slice(i, i + RENEW_BATCH)) {
        for (const key of o.leaseKeys) {
          keys.push(key)
          ids.push(o.leaseId)
        }
      }
      await link.eval(RENEW, keys, [ttlMs, ...ids]).catch(() => {})
    }
  })

  async function acquire(requests: ScopeRequest[], estimateTokens: number): Promise<AcquireResult> {
    const active = requests.filter(limited)
    if (active.length === 0) return FREE
    if (!link.up) return fallback.acquireNow(requests, estimateTokens)
    const keys: string[] = []
    const args: (string | number)[] = [estimateTokens, `${instanceId}:${++seq}`, ttlMs]
    for (const r of active) {
      keys.push(`${prefix}rl:${r.key}`, `${prefix}cc:${r.key}`)
      args.push(r.limits.rpm, r.limits.tpm, r.limits.concurrency)
    }
    let reply: unknown
    try {
      reply = await link.eval(ACQUIRE, keys, args)
    } catch {
      return fallback.acquireNow(requests, estimateTokens)
    }
    if (Array.isArray(reply)) {
      const [index, kind, inFlight, retryAfter] = reply as [number, LimitKind, number, string]
      const r = active[index - 1]!
      return { ok: false, key: r.key, label: r.label, kind, limit: r.limits[kind], inFlight: Number(inFlight), retryAfter: Number(retryAfter) }
    }
    const held: Open = { leaseKeys: keys.filter((_, i) => i % 2 === 1), leaseId: args[1] as string }
    open.add(held)
    return { ok: true, permit: permit(held, keys, active, estimateTokens) }
  }

  function permit(held: Open, keys: string[], active: ScopeRequest[], estimateTokens: number): Permit {
    return {
      async release(usedTokens) {
        if (!open.delete(held) || !link.up) return // released before, or left to the lease's TTL
        const tpm = active.map((r) => r.limits.tpm)
        await link.eval(RELEASE, keys, [held.leaseId, estimateTokens, usedTokens, ...tpm]).catch(() => {})
      },
    }
  }

  return {
    acquire,
    /** stop renewing: the leases still held lapse with their TTL */
    stop: stopRenewing,
    get open(): number {
      return open.size
    },
  }
}
