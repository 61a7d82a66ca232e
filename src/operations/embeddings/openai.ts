import { UpstreamFailure } from '../../relay/failure'
import type { OperationDialect } from '../types'
import { embeddingUsage, fromBase64, renderEmbeddings } from './render'
import type { EmbeddingsRequest } from './request'

/**
 * OpenAI's `/v1/embeddings`, which most vendors copy. An OpenAI client's body goes on with only `model`
 * replaced, and the answer comes back as sent; a Gemini client's texts are asked for as floats and re-shaped.
 */
export const openAiEmbeddings: OperationDialect<EmbeddingsRequest> = {
  encode(request, upstreamModel) {
    const body =
      request.client === 'openai'
        ? { ...request.body, model: upstreamModel }
        : { model: upstreamModel, input: request.texts, encoding_format: 'float', ...(request.dimensions ? { dimensions: request.dimensions } : {}) }
    return { body: JSON.stringify(body), contentType: 'application/json' }
  },

  async decode(response, request) {
    const text = await response.text()
    const answer = parseAnswer(text)
    const promptTokens = answer.usage?.prompt_tokens
    const usage = typeof promptTokens === 'number' && promptTokens > 0 ? embeddingUsage(promptTokens) : undefined
    if (request.client === 'openai') return { body: text, contentType: 'application/json', usage }
    const vectors = answer.data.map((item) => (typeof item.embedding === 'string' ? fromBase64(item.embedding) : item.embedding))
    return { body: renderEmbeddings({ vectors }, request, promptTokens ?? 0), contentType: 'application/json', usage }
  },
}

interface OpenAiAnswer {
  data: { index?: number; embedding: number[] | string }[]
  usage?: { prompt_tokens?: number }
}

function parseAnswer(text: string): OpenAiAnswer {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new UpstreamFailure(0, `upstream sent an embeddings answer that is not JSON: ${text.slice(0, 200)}`, true)
  }
  const data = (json as { data?: unknown })?.data
  if (!Array.isArray(data)) throw new UpstreamFailure(0, 'upstream sent an embeddings answer without `data`', true)
  // answers are in input order by `index`; a few servers shuffle them
  const sorted = [...(data as OpenAiAnswer['data'])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
  return { data: sorted, usage: (json as OpenAiAnswer).usage }
}
