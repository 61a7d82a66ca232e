/**
 * Rerank on the operations fake, in each vendor's own shape and auth:
 * - Jina `POST /v1/rerank` (Bearer; documents strings or `{text}`; `return_documents` defaults to true; `usage.total_tokens`),
 *   answered SiliconFlow-style (`meta.tokens`, `return_documents` default false) for models named `BAAI/…`;
 *   a model whose name holds `unsorted` answers in index order and ignores `top_n`, as a careless server might.
 * - Cohere `POST /v2/rerank` (Bearer; documents strings only; fields v2 does not document refused; no documents in
 *   the answer; `meta.billed_units.search_units`).
 * - DashScope `POST /api/v1/services/rerank/text-rerank/text-rerank` (Bearer; `input`/`parameters`; `output.results`,
 *   `usage.total_tokens`, `request_id`; errors as `{code, message, request_id}`).
 * Scores come from `fakeScore`, tokens from `fakeRerankTokens`, so tests can tell what the upstream counted from ours.
 * Importing this file registers the routes.
 */
import { addOperationRoute, type RecordedCall } from './operations'

/** Query words found in the document, ties broken in favour of the shorter document. */
export function fakeScore(query: string, doc: string): number {
  const words = new Set(doc.toLowerCase().split(/\W+/))
  const hits = query.toLowerCase().split(/\W+/).filter((w) => w && words.has(w)).length
  return hits + 1 / (2 + doc.length)
}

/** What the fake upstreams say they counted: one token per word of the query and of every document. */
export function fakeRerankTokens(query: string, docs: string[]): number {
  return [query, ...docs].reduce((n, text) => n + text.split(/\s+/).filter(Boolean).length, 0)
}

const bearerOk = (call: RecordedCall, key: string) => call.headers.authorization === `Bearer ${key}`

function ranked(query: string, docs: string[], topN: number | undefined, sorted = true) {
  const all = docs.map((doc, index) => ({ index, relevance_score: fakeScore(query, doc) }))
  if (!sorted) return all
  return all.sort((a, b) => b.relevance_score - a.relevance_score).slice(0, topN ?? docs.length)
}

function jina(call: RecordedCall, key: string): Response {
  if (!bearerOk(call, key)) return Response.json({ detail: 'Invalid API key' }, { status: 401 })
  const { model, query, documents, top_n: topN, return_documents: returnDocuments } = call.json ?? {}
  if (typeof model !== 'string' || typeof query !== 'string' || !Array.isArray(documents)) return Response.json({ detail: [{ loc: ['body', 'query'], msg: 'field required' }] }, { status: 422 })
  const texts = documents.map((d: unknown) => (typeof d === 'string' ? d : (d as { text: string }).text))
  const siliconflow = model.startsWith('BAAI/')
  const withDocs = returnDocuments ?? !siliconflow
  const results = ranked(query, texts, topN, !model.includes('unsorted')).map((r) => (withDocs ? { ...r, document: { text: texts[r.index] } } : r))
  const tokens = fakeRerankTokens(query, texts)
  if (siliconflow) return Response.json({ id: 'sf-rerank-1', results, meta: { billed_units: { input_tokens: tokens, output_tokens: 0, search_units: 0, classifications: 0 }, tokens: { input_tokens: tokens, output_tokens: 0 } } })
  return Response.json({ model, usage: { total_tokens: tokens }, results })
}

const COHERE_FIELDS = new Set(['model', 'query', 'documents', 'top_n', 'max_tokens_per_doc', 'priority'])

function cohere(call: RecordedCall, key: string): Response {
  if (!bearerOk(call, key)) return Response.json({ id: 'err-1', message: 'invalid api token' }, { status: 401 })
  const body = call.json ?? {}
  const unknown = Object.keys(body).find((k) => !COHERE_FIELDS.has(k))
  if (unknown) return Response.json({ id: 'err-2', message: `invalid request: unknown field "${unknown}"` }, { status: 400 })
  if (!Array.isArray(body.documents) || body.documents.some((d: unknown) => typeof d !== 'string')) return Response.json({ id: 'err-3', message: 'invalid request: documents must be a list of strings' }, { status: 400 })
  return Response.json({ id: 'cohere-rerank-1', results: ranked(body.query, body.documents, body.top_n), meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } } })
}

function dashscope(call: RecordedCall, key: string): Response {
  if (!bearerOk(call, key)) return Response.json({ code: 'InvalidApiKey', message: 'Invalid API-key provided.', request_id: 'ds-err' }, { status: 401 })
  const { model, input, parameters = {} } = call.json ?? {}
  if (typeof model !== 'string' || typeof input?.query !== 'string' || !Array.isArray(input?.documents)) {
    return Response.json({ code: 'InvalidParameter', message: 'input.query and input.documents are required', request_id: 'ds-bad' }, { status: 400 })
  }
  const results = ranked(input.query, input.documents, parameters.top_n).map((r) => (parameters.return_documents ? { ...r, document: { text: input.documents[r.index] } } : r))
  return Response.json({ output: { results }, usage: { total_tokens: fakeRerankTokens(input.query, input.documents) }, request_id: 'ds-request-1' })
}

addOperationRoute('POST /v1/rerank', jina)
addOperationRoute('POST /v2/rerank', cohere)
addOperationRoute('POST /api/v1/services/rerank/text-rerank/text-rerank', dashscope)
