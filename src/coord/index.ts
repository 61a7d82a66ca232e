import { createLocalCoordination, type LocalCoordination } from './local'
import { createRedisCoordination, type RedisCoordOptions } from './redis'
import type { AcquireResult, CoordOptions, Coordination, ScopeRequest } from './types'

export type { Coordination, ScopeLimits, ScopeRequest } from './types'
export { limitError, loginError } from './limit-errors'

/** `REDIS_URL` set: shared through Redis; otherwise this process alone, as a single node always was. */
export function createCoordination(options: CoordOptions & Partial<Pick<RedisCoordOptions, 'url' | 'tls' | 'prefix' | 'timeoutMs'>>): Promise<Coordination> {
  const { url, ...rest } = options
  return url ? createRedisCoordination({ ...rest, url }) : Promise.resolve(createLocalCoordination(rest))
}

/** `acquire`, answered at once where the backend can (local: the relay awaits nothing more per request on one node). */
export function admit(coord: Coordination, requests: ScopeRequest[], estimateTokens: number): AcquireResult | Promise<AcquireResult> {
  const local = coord as Partial<LocalCoordination>
  return local.acquireNow ? local.acquireNow(requests, estimateTokens) : coord.acquire(requests, estimateTokens)
}
