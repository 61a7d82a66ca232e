import { createLocalCoordination } from './local'
import { createRedisCoordination, type RedisCoordOptions } from './redis'
import type { CoordOptions, Coordination } from './types'

export type { Coordination } from './types'
export { limitError, loginError } from './limit-errors'

/** `REDIS_URL` set: shared through Redis; otherwise this process alone, as a single node always was. */
export function createCoordination(options: CoordOptions & Partial<Pick<RedisCoordOptions, 'url' | 'tls' | 'prefix' | 'timeoutMs'>>): Promise<Coordination> {
  const { url, ...rest } = options
  return url ? createRedisCoordination({ ...rest, url }) : Promise.resolve(createLocalCoordination(rest))
}
