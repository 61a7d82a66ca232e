import type { OperationDialect } from '../types'
import { upstreamJson } from '../upstream-json'
import { renderRanking, tokensOf } from './render'
import type { RerankRequest } from './request'

type Json = Record<string, any>

/**
 * The `rerank` dialect: Jina's `/v1/rerank`, which SiliconFlow, Xinference, vLLM and most compatible servers copy.
 * The client's body goes on with the model replaced and documents as plain strings (every such server takes
 * those; extra fields such as `instruction` or `truncation` pass). Usage: Jina's `usage.total_tokens`,
 * SiliconFlow's `meta.tokens.input_tokens`.
 */
export const compatibleRerank: OperationDialect<RerankRequest> = {
  encode(request, upstreamModel) {
    return { body: JSON.stringify({ ...request.body, model: upstreamModel, documents: request.documents }), contentType: 'application/json' }
  },

  async decode(response, request) {
    const json: Json = upstreamJson(await response.text(), 'rerank')
    const tokens = tokensOf(json.usage?.total_tokens, json.usage?.prompt_tokens, json.meta?.tokens?.input_tokens, json.meta?.billed_units?.input_tokens)
    const { body, usage } = renderRanking({ id: typeof json.id === 'string' ? json.id : undefined, results: json.results, tokens, meta: json.meta }, request)
    return { body, contentType: 'application/json', usage }
  },
}
