import { UpstreamFailure } from '../../relay/failure'
import type { OperationDialect } from '../types'
import { countedInput, inputOnlyUsage, upstreamJson } from '../upstream-json'
import type { ModerationsRequest } from './request'

/**
 * OpenAI's `/v1/moderations`: the client's body with only `model` replaced, the answer passed back as sent.
 * OpenAI reports no usage for moderations, so the counted text tokens are billed (the shipped moderation models are free).
 */
export const openAiModerations: OperationDialect<ModerationsRequest> = {
  encode(request, upstreamModel) {
    return { body: JSON.stringify({ ...request.body, model: upstreamModel }), contentType: 'application/json' }
  },

  async decode(response, request) {
    const text = await response.text()
    const json = upstreamJson(text, 'moderations')
    if (!Array.isArray(json.results)) throw new UpstreamFailure(0, 'upstream sent a moderations answer without `results`', true)
    return { body: text, contentType: 'application/json', usage: inputOnlyUsage(countedInput(request.meter)) }
  },
}
