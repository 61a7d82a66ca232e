import { RateLimitError } from '../errors'

/** Limits of one scope (a token or a user); 0 = no limit. */
export interface Limits {
  rpm: number
  tpm: number
  concurrency: number
}

interface Bucket {
  level: number
  at: number
}

interface ScopeState {
  rpm?: Bucket
  tpm?: Bucket
  inFlight: number
}

export interface ScopeRequest {
  /** e.g. `t:12` or `u:3` */
  key: string
  /** `token` or `user`, for the message */
  label: string
  limits: Limits
}

/** Give back what `acquire` took: the concurrency slot, and the TPM estimate minus the tokens really used. */
export type Release = (usedTokens: number) => void

const MAX_SCOPES = 100_000
const NO_LIMITS: Release = () => {}

/**
 * Requests per minute, tokens per minute and requests in flight, per scope, in memory. RPM and TPM are
 * token buckets that refill continuously (capacity = the per-minute limit), so `retry-after` is exact.
 * TPM takes the request's estimate at the start and gets the difference back when it is settled.
 * Idle scopes with full buckets are forgotten, so memory stays bounded.
 */
export function createRateLimiter(clock: () => number = () => performance.now() / 1000) {
  const scopes = new Map<string, ScopeState>()
  let sinceSweep = 0

  function refill(bucket: Bucket | undefined, capacity: number, now: number): Bucket {
    if (!bucket) return { level: capacity, at: now }
    bucket.level = Math.min(capacity, bucket.level + ((now - bucket.at) * capacity) / 60)
    bucket.at = now
    return bucket
  }

  function sweep(now: number): void {
    sinceSweep = 0
    for (const [key, s] of scopes) {
      const idle = s.inFlight === 0 && (!s.rpm || now - s.rpm.at > 60) && (!s.tpm || now - s.tpm.at > 60)
      if (idle) scopes.delete(key)
    }
  }

  return {
    /**
     * Check every scope, then take from all of them, or throw a 429 naming the first that is exhausted
     * (nothing is taken then).
     */
    acquire(requests: ScopeRequest[], estimateTokens: number): Release {
      if (++sinceSweep >= 10_000 || scopes.size > MAX_SCOPES) sweep(clock())
      const active = requests.filter((r) => r.limits.rpm > 0 || r.limits.tpm > 0 || r.limits.concurrency > 0)
      // the common case, no limits anywhere: nothing to take or give back, and no clock to read
      if (active.length === 0) return NO_LIMITS
      const now = clock()
      const states: ScopeState[] = []
      for (const r of active) {
        const s = scopes.get(r.key) ?? { inFlight: 0 }
        if (r.limits.rpm > 0) s.rpm = refill(s.rpm, r.limits.rpm, now)
        if (r.limits.tpm > 0) s.tpm = refill(s.tpm, r.limits.tpm, now)
        if (r.limits.concurrency > 0 && s.inFlight >= r.limits.concurrency) {
          throw new RateLimitError(`rate limited: this ${r.label} already has ${s.inFlight} requests in flight (limit ${r.limits.concurrency})`, 1)
        }
        if (s.rpm && r.limits.rpm > 0 && s.rpm.level < 1) {
          throw new RateLimitError(`rate limited: this ${r.label} may send ${r.limits.rpm} requests per minute`, ((1 - s.rpm.level) * 60) / r.limits.rpm)
        }
        // a request larger than the whole TPM budget passes only when the bucket is full
        const need = Math.min(estimateTokens, r.limits.tpm)
        if (s.tpm && r.limits.tpm > 0 && s.tpm.level < need) {
          throw new RateLimitError(`rate limited: this ${r.label} may use ${r.limits.tpm} tokens per minute`, ((need - s.tpm.level) * 60) / r.limits.tpm)
        }
        states.push(s)
      }
      active.forEach((r, i) => {
        const s = states[i]!
        scopes.set(r.key, s)
        if (r.limits.rpm > 0) s.rpm!.level -= 1
        if (r.limits.tpm > 0) s.tpm!.level -= estimateTokens
        s.inFlight++
      })
      let released = false
      return (usedTokens) => {
        if (released) return
        released = true
        const at = clock()
        active.forEach((r, i) => {
          const s = states[i]!
          s.inFlight = Math.max(0, s.inFlight - 1)
          if (s.tpm && r.limits.tpm > 0) {
            refill(s.tpm, r.limits.tpm, at)
            s.tpm.level = Math.min(r.limits.tpm, s.tpm.level + estimateTokens - usedTokens)
          }
        })
      }
    },
    get size(): number {
      return scopes.size
    },
  }
}

export type RateLimiter = ReturnType<typeof createRateLimiter>
