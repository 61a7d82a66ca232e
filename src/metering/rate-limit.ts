import { limitError } from '../coord'
import { createLocalLimits } from '../coord/local-limits'
import type { ScopeRequest } from '../coord/types'

export type { ScopeRequest }

/** Give back what `acquire` took: the concurrency slot, and the TPM estimate minus the tokens really used. */
export type Release = (usedTokens: number) => void

/**
 * The limits' rules (`coord/local-limits.ts`) behind a synchronous face that throws the 429: what the relay used
 * before `deps.coord`, kept for the rules' unit tests and as `bench/coord.ts`'s baseline. The relay admits through
 * `deps.coord` (metering/reserve.ts). `clock` in seconds; holds never lapse (no lease to renew).
 */
export function createRateLimiter(clock: () => number = () => performance.now() / 1000) {
  const limits = createLocalLimits(() => clock() * 1000)
  return {
    /** Check every scope, then take from all of them, or throw a 429 naming the first that is exhausted. */
    acquire(requests: ScopeRequest[], estimateTokens: number): Release {
      const admitted = limits.acquire(requests, estimateTokens, Infinity)
      if (!admitted.ok) throw limitError(admitted)
      return admitted.release
    },
    get size(): number {
      return limits.size
    },
  }
}
