import type { LimitDenial, ScopeRequest } from './types'

interface Bucket {
  level: number
  /** seconds */
  at: number
}

/** One request's hold on its scopes' concurrency; the owner renews `expiresAt` while the request runs. */
export interface Held {
  expiresAt: number
  released: boolean
}

interface ScopeState {
  rpm?: Bucket
  tpm?: Bucket
  held: Set<Held>
}

export type LocalAdmit = { ok: true; held: Held; release: (usedTokens: number) => void }

const MAX_SCOPES = 100_000
const NOTHING_HELD: Held = { expiresAt: Infinity, released: true }
const NO_LIMITS: LocalAdmit = { ok: true, held: NOTHING_HELD, release: () => {} }

/**
 * RPM and TPM token buckets (capacity = the per-minute limit, continuous refill, so `retryAfter` is exact) and
 * requests in flight, per scope, in memory: the rules the relay has always applied, with each in-flight request
 * a lease that lapses at `expiresAt` unless renewed (so the same rules can be shared by several instances and
 * a holder that stops renewing frees its slots). Idle scopes with full buckets are forgotten.
 * `clock` is in milliseconds.
 */
export function createLocalLimits(clock: () => number = () => performance.now()) {
  const scopes = new Map<string, ScopeState>()
  let sinceSweep = 0

  function refill(bucket: Bucket | undefined, capacity: number, now: number): Bucket {
    if (!bucket) return { level: capacity, at: now }
    bucket.level = Math.min(capacity, bucket.level + ((now - bucket.at) * capacity) / 60)
    bucket.at = now
    return bucket
  }

  function purge(s: ScopeState, nowMs: number): void {
    for (const h of s.held) if (h.expiresAt <= nowMs) s.held.delete(h)
  }

  function sweep(nowMs: number): void {
    sinceSweep = 0
    const now = nowMs / 1000
    for (const [key, s] of scopes) {
      purge(s, nowMs)
      const idle = s.held.size === 0 && (!s.rpm || now - s.rpm.at > 60) && (!s.tpm || now - s.tpm.at > 60)
      if (idle) scopes.delete(key)
    }
  }

  function deny(r: ScopeRequest, kind: LimitDenial['kind'], limit: number, inFlight: number, retryAfter: number): LimitDenial {
    return { ok: false, key: r.key, label: r.label, kind, limit, inFlight, retryAfter }
  }

  /** Check every limited scope, then take from all of them, or take nothing and name the first without room. */
  function acquire(requests: ScopeRequest[], estimateTokens: number, ttlMs: number): LocalAdmit | LimitDenial {
    if (++sinceSweep >= 10_000 || scopes.size > MAX_SCOPES) sweep(clock())
    const active = requests.filter((r) => r.limits.rpm > 0 || r.limits.tpm > 0 || r.limits.concurrency > 0)
    // the common case, no limits anywhere: nothing to take or give back, and no clock to read
    if (active.length === 0) return NO_LIMITS
    const nowMs = clock()
    const now = nowMs / 1000
    const states: ScopeState[] = []
    for (const r of active) {
      const s = scopes.get(r.key) ?? { held: new Set<Held>() }
      if (r.limits.rpm > 0) s.rpm = refill(s.rpm, r.limits.rpm, now)
      if (r.limits.tpm > 0) s.tpm = refill(s.tpm, r.limits.tpm, now)
      if (r.limits.concurrency > 0 && s.held.size >= r.limits.concurrency) {
        purge(s, nowMs) // lapsed leases only matter when they would refuse
        if (s.held.size >= r.limits.concurrency) return deny(r, 'concurrency', r.limits.concurrency, s.held.size, 1)
      }
      if (s.rpm && r.limits.rpm > 0 && s.rpm.level < 1) {
        return deny(r, 'rpm', r.limits.rpm, 0, ((1 - s.rpm.level) * 60) / r.limits.rpm)
      }
      // a request larger than the whole TPM budget passes only when the bucket is full
      const need = Math.min(estimateTokens, r.limits.tpm)
      if (s.tpm && r.limits.tpm > 0 && s.tpm.level < need) {
        return deny(r, 'tpm', r.limits.tpm, 0, ((need - s.tpm.level) * 60) / r.limits.tpm)
      }
      states.push(s)
    }
    const held: Held = { expiresAt: nowMs + ttlMs, released: false }
    active.forEach((r, i) => {
      const s = states[i]!
      scopes.set(r.key, s)
      if (r.limits.rpm > 0) s.rpm!.level -= 1
      if (r.limits.tpm > 0) s.tpm!.level -= estimateTokens
      s.held.add(held)
    })
    const release = (usedTokens: number): void => {
      if (held.released) return
      held.released = true
      const at = clock() / 1000
      active.forEach((r, i) => {
        const s = states[i]!
        s.held.delete(held)
        if (s.tpm && r.limits.tpm > 0) {
          refill(s.tpm, r.limits.tpm, at)
          s.tpm.level = Math.min(r.limits.tpm, s.tpm.level + estimateTokens - usedTokens)
        }
      })
    }
    return { ok: true, held, release }
  }

  return {
    acquire,
    get size(): number {
      return scopes.size
    },
  }
}
