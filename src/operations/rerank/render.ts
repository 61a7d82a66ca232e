import type { Usage } from '../../ir'
import { UpstreamFailure } from '../../relay/failure'
import { countedInput, inputOnlyUsage } from '../upstream-json'
import type { RerankRequest } from './request'

/** One upstream's ranking, read from its own shape. */
export interface Ranking {
  id?: string
  /** as the upstream listed them: any order, maybe more than top_n */
  results: unknown
  /** input tokens the upstream counted, when it says */
  tokens?: number
  /** Cohere-style `meta` (billed units), passed on when the upstream sent one */
  meta?: unknown
}

interface Result {
  index: number
  relevance_score: number
  document?: { text: string }
}

/**
 * The client's answer in the Cohere/Jina shape, whatever the upstream did: results in descending relevance_score,
 * at most top_n, each document (when asked for, or when the upstream sent it) from the client's own texts.
 */
export function renderRanking(ranking: Ranking, request: RerankRequest): { body: string; usage: Usage } {
  const results = checkedResults(ranking.results, request.documents.length)
    .sort((a, b) => b.score - a.score)
    .slice(0, request.topN ?? Infinity)
    .map(({ index, score, hadDocument }): Result => {
      const withDocument = request.returnDocuments ?? hadDocument
      return withDocument ? { index, relevance_score: score, document: { text: request.documents[index]! } } : { index, relevance_score: score }
    })
  const tokens = ranking.tokens && ranking.tokens > 0 ? ranking.tokens : countedInput(request.meter)
  const body: Record<string, unknown> = {}
  if (ranking.id) body.id = ranking.id
  body.model = request.model
  body.results = results
  body.usage = { prompt_tokens: tokens, total_tokens: tokens }
  if (ranking.meta !== undefined) body.meta = ranking.meta
  return { body: JSON.stringify(body), usage: inputOnlyUsage(tokens) }
}

function checkedResults(results: unknown, documents: number): { index: number; score: number; hadDocument: boolean }[] {
  if (!Array.isArray(results)) throw new UpstreamFailure(0, 'upstream sent a rerank answer without `results`', true)
  return results.map((r: { index?: unknown; relevance_score?: unknown; document?: unknown }) => {
    const index = r?.index
    const score = r?.relevance_score
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= documents) {
      throw new UpstreamFailure(0, `upstream ranked a document index ${JSON.stringify(index)} of ${documents} documents`, true)
    }
    if (typeof score !== 'number' || !Number.isFinite(score)) throw new UpstreamFailure(0, `upstream sent relevance_score ${JSON.stringify(score)} for document ${index}`, true)
    return { index, score, hadDocument: r.document !== undefined && r.document !== null }
  })
}

/** A non-negative token count from an upstream field, or undefined. */
export function tokensOf(...values: unknown[]): number | undefined {
  for (const v of values) if (typeof v === 'number' && Number.isFinite(v) && v > 0) return Math.floor(v)
  return undefined
}
