import { BadRequestError } from '../../errors'
import { UpstreamFailure } from '../../relay/failure'
import type { OperationDialect } from '../types'
import { countedTokens, renderEmbeddings } from './render'
import type { EmbeddingsRequest } from './request'

/**
 * Gemini's `models/{model}:batchEmbedContents`: every input (one or many) in one call. Gemini reports no
 * token usage for embeddings, so metering bills the counted input. A Gemini client's own requests go on as sent
 * (titles, task types, parts), the model named as the channel names it; an `:embedContent` body is a batch of one.
 */
export const geminiEmbeddings: OperationDialect<EmbeddingsRequest> = {
  encode(request, upstreamModel) {
    if (request.tokenArrays) throw new BadRequestError('input as token ids is not served by Gemini embedding models; send text', 'input')
    const name = upstreamModel.startsWith('models/') ? upstreamModel : `models/${upstreamModel}`
    return { body: JSON.stringify({ requests: geminiRequests(request, name) }), contentType: 'application/json' }
  },

  async decode(response, request) {
    const text = await response.text()
    let json: { embeddings?: { values?: number[] }[] }
    try {
      json = JSON.parse(text)
    } catch {
      throw new UpstreamFailure(0, `upstream sent an embeddings answer that is not JSON: ${text.slice(0, 200)}`, true)
    }
    if (!Array.isArray(json.embeddings) || json.embeddings.length !== request.texts.length) {
      throw new UpstreamFailure(0, `upstream answered ${json.embeddings?.length ?? 'no'} embeddings for ${request.texts.length} inputs`, true)
    }
    const vectors = json.embeddings.map((e) => e.values ?? [])
    return { body: renderEmbeddings({ vectors }, request, countedTokens(request)), contentType: 'application/json' }
  },

  errorMessage(_status, body) {
    const error = (body as { error?: { message?: unknown } })?.error
    return typeof error?.message === 'string' ? error.message : undefined
  },
}

function geminiRequests(request: EmbeddingsRequest, model: string): Record<string, unknown>[] {
  if (request.client === 'gemini-batch') return (request.body.requests as Record<string, unknown>[]).map((r) => ({ ...r, model }))
  if (request.client === 'gemini-one') return [{ ...request.body, model }]
  return request.texts.map((text) => ({
    model,
    content: { parts: [{ text }] },
    ...(request.taskType ? { taskType: request.taskType } : {}),
    ...(request.dimensions ? { outputDimensionality: request.dimensions } : {}),
  }))
}
