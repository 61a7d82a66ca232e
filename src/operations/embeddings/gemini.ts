import { BadRequestError } from '../../errors'
import { UpstreamFailure } from '../../relay/failure'
import type { OperationDialect } from '../types'
import { renderEmbeddings } from './render'
import type { EmbeddingsRequest } from './request'

/**
 * Gemini's `models/{model}:batchEmbedContents`: every input (one or many) in one call. Gemini reports no
 * token usage for embeddings, so metering bills the counted input.
 */
export const geminiEmbeddings: OperationDialect<EmbeddingsRequest> = {
  encode(request, upstreamModel) {
    if (request.tokenArrays) throw new BadRequestError('input as token ids is not served by Gemini embedding models; send text', 'input')
    const name = upstreamModel.startsWith('models/') ? upstreamModel : `models/${upstreamModel}`
    const requests = request.texts.map((text) => ({
      model: name,
      content: { parts: [{ text }] },
      ...(request.taskType ? { taskType: request.taskType } : {}),
      ...(request.dimensions ? { outputDimensionality: request.dimensions } : {}),
    }))
    return { body: JSON.stringify({ requests }), contentType: 'application/json' }
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
    const promptTokens = request.meter.exact ? request.meter.input : request.meter.count()
    return { body: renderEmbeddings({ vectors }, request, promptTokens), contentType: 'application/json' }
  },

  errorMessage(_status, body) {
    const error = (body as { error?: { message?: unknown } })?.error
    return typeof error?.message === 'string' ? error.message : undefined
  },
}
