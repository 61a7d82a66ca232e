import type { ResponseHome, ResponseHomes } from '../../coord/response-home-types'
import type { OptionStore } from '../../options/store'
import type { RouteCandidate } from '../routing'
import { keyFingerprint } from '../routing/affinity/session-affinity'

export type { ResponseHome } from '../../coord/response-home-types'

/**
 * Which channel and key created each stored OpenAI response (`store` not false), so that a retrieve, delete,
 * cancel, input_items or a follow-up turn (`previous_response_id`) reaches the upstream account that holds it.
 * Kept in the nodes' shared cache (coord (i)) for `ResponsesStoreTtlSeconds`.
 */
export function createResponseRegistry(cache: ResponseHomes, options: Pick<OptionStore, 'get'>) {
  return {
    /** settles once the home is written where every node reads it (never rejects) */
    remember(responseId: string, candidate: RouteCandidate, userId: number, model: string): Promise<void> {
      if (!isResponseId(responseId)) return Promise.resolve()
      const home: ResponseHome = { channelId: candidate.channel.id, keyFp: keyFingerprint(candidate.key), userId, model }
      const ttlMs = options.get<number>('ResponsesStoreTtlSeconds') * 1000
      return cache.set(responseId, home, ttlMs, options.get<number>('ResponsesStoreMaxEntries'))
    },
    find: (responseId: string): Promise<ResponseHome | undefined> => (isResponseId(responseId) ? cache.get(responseId).catch(() => undefined) : Promise.resolve(undefined)),
    forget: (responseId: string): void => cache.delete(responseId),
  }
}

export type ResponseRegistry = ReturnType<typeof createResponseRegistry>

/** An id as OpenAI makes them (`resp_…`), bounded: nothing else is looked up or stored. */
function isResponseId(id: string): boolean {
  return id.length <= 200 && /^[A-Za-z0-9_-]+$/.test(id)
}
