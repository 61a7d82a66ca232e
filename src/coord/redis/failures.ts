import type { LocalCoordination } from '../local'
import type { RedisLink } from './link'
import { FAILURE } from './scripts'

/**
 * Consecutive failures per channel, in one Redis hash (channel id → count), so a channel's failures on every node
 * add up. A success must reset the count, yet most requests succeed on channels that never failed: each node
 * keeps the ids with a count (its own failures, the others' announced on `failures`, the hash's keys on connect),
 * and only a success on one of those costs a round trip (fire and forget).
 */
export function createRedisFailures(link: RedisLink, fallback: LocalCoordination, prefix: string) {
  const key = `${prefix}failures`
  const channel = `${prefix}failures`
  const known = new Set<number>()

  return {
    channel,
    async failure(channelId: number): Promise<number> {
      known.add(channelId)
      if (link.up) {
        const count = await link.eval(FAILURE, [key], [channel, channelId]).catch(() => undefined)
        if (count !== undefined) return Number(count)
      }
      return fallback.channelFailure(channelId)
    },
    success(channelId: number): void {
      fallback.channelSuccess(channelId)
      if (!known.delete(channelId)) return
      if (link.up) link.send('HDEL', [key, String(channelId)]).catch(() => known.add(channelId))
    },
    async count(channelId: number): Promise<number> {
      if (!link.up) return fallback.channelFailures(channelId)
      const count = await link.send('HGET', [key, String(channelId)]).catch(() => undefined)
      return count === undefined ? fallback.channelFailures(channelId) : Number(count ?? 0)
    },
    async all(): Promise<Map<number, number>> {
      if (!link.up) return fallback.allChannelFailures()
      const all = (await link.send('HGETALL', [key]).catch(() => undefined)) as Record<string, string> | undefined
      if (all === undefined) return fallback.allChannelFailures()
      return new Map(Object.entries(all).map(([id, count]) => [Number(id), Number(count)]))
    },
    /** another node counted a failure */
    announced(message: string): void {
      const id = Number(message)
      if (Number.isInteger(id)) known.add(id)
    },
    /** on (re)connect: every channel with a count somewhere */
    async load(): Promise<void> {
      const ids = (await link.send('HKEYS', [key]).catch(() => [])) as string[]
      for (const id of ids) known.add(Number(id))
    },
  }
}
