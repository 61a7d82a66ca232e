import type { OperationDialect } from '../types'
import { upstreamJson } from '../upstream-json'
import { renderRanking, tokensOf } from './render'
import type { RerankRequest } from './request'

type Json = Record<string, any>

/**
 * Alibaba DashScope's text rerank (`/api/v1/services/rerank/text-rerank/text-rerank`, gte-rerank-v2 and
 * qwen3-rerank): query and documents wrapped in `input`, options in `parameters`, the ranking in
 * `output.results` and the tokens in `usage.total_tokens`. Documents are never asked back (the answer has the
 * client's own); qwen3-rerank's `instruct` passes (SiliconFlow's name `instruction` too).
 */
export const dashscopeRerank: OperationDialect<RerankRequest> = {
  encode(request, upstreamModel) {
    const parameters: Record<string, unknown> = { return_documents: false }
    if (request.topN !== undefined) parameters.top_n = request.topN
    const instruct = request.body.instruct ?? request.body.instruction
    if (typeof instruct === 'string' && instruct) parameters.instruct = instruct
    const body = { model: upstreamModel, input: { query: request.query, documents: request.documents }, parameters }
    return { body: JSON.stringify(body), contentType: 'application/json' }
  },

  async decode(response, request) {
    const json: Json = upstreamJson(await response.text(), 'rerank')
    const id = typeof json.request_id === 'string' ? json.request_id : undefined
    const { body, usage } = renderRanking({ id, results: json.output?.results, tokens: tokensOf(json.usage?.total_tokens) }, request)
    return { body, contentType: 'application/json', usage }
  },

  errorMessage(_status, body) {
    const b = body as { code?: unknown; message?: unknown } | null
    if (typeof b?.message !== 'string') return undefined
    return typeof b.code === 'string' && b.code ? `${b.code}: ${b.message}` : b.message
  },
}
