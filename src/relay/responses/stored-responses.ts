import type { AffinityEntry } from '../../coord/affinity-types'
import { GatewayError } from '../../errors'
import type { RouteCandidate } from '../routing'
import type { RelayInput } from '../types'
import type { ResponseRegistry } from './response-registry'

/**
 * A Responses turn that continues a stored response (`previous_response_id`): its home (channel and key) goes
 * first, since only that upstream account holds the conversation. Another user's response is not found, as
 * OpenAI says of one that is not there: a key never reaches a conversation it did not make.
 */
export function previousResponseHome(responses: ResponseRegistry | undefined, previous: unknown, userId: number): Promise<AffinityEntry | undefined> | undefined {
  if (!responses || typeof previous !== 'string') return undefined
  return responses.find(previous).then((home) => {
    if (home && home.userId !== userId) throw new GatewayError(400, 'previous_response_not_found', `Previous response with id '${previous}' not found.`, 'previous_response_id')
    return home
  })
}

/** For a Responses request that stores its answer (`store` is not false): remember where the answer lives, once its id is known. */
export function storedResponse(responses: ResponseRegistry | undefined, input: RelayInput, candidate: RouteCandidate, model: string): ((id: string) => Promise<void>) | undefined {
  if (!responses || input.protocol !== 'openai-responses' || input.body.member('store') === false) return undefined
  return (id) => responses.remember(id, candidate, input.user.id, model)
}
