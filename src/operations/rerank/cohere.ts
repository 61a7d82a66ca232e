import type { OperationDialect } from '../types'
import { upstreamJson } from '../upstream-json'
import { renderRanking } from './render'
import type { RerankRequest } from './request'

type Json = Record<string, any>

/**
 * Cohere's native `POST /v2/rerank`: documents as strings only, no `return_documents` (v2 never sends them back, so
 * the answer takes them from the client's texts), `max_tokens_per_doc` passed when the client gave it. Cohere bills
 * search units (`meta.billed_units.search_units`), not tokens: its models are priced per call, and the log row
 * shows the counted tokens.
 */
export const cohereRerank: OperationDialect<RerankRequest> = {
  encode(request, upstreamModel) {
    const body: Record<string, unknown> = { model: upstreamModel, query: request.query, documents: request.documents }
    if (request.topN !== undefined) body.top_n = request.topN
    if (Number.isInteger(request.body.max_tokens_per_doc)) body.max_tokens_per_doc = request.body.max_tokens_per_doc
    return { body: JSON.stringify(body), contentType: 'application/json' }
  },

  async decode(response, request) {
    const json: Json = upstreamJson(await response.text(), 'rerank')
    const { body, usage } = renderRanking({ id: typeof json.id === 'string' ? json.id : undefined, results: json.results, meta: json.meta }, request)
    return { body, contentType: 'application/json', usage }
  },
}
