import { BadRequestError } from '../../errors'
import { objectBody, optionalBoolean, optionalInteger, requiredString } from '../fields'
import { textsMeter } from '../text-meter'
import type { OperationRequest } from '../types'

export interface RerankRequest extends OperationRequest {
  query: string
  /** the documents' texts, in the client's order (results name them by index) */
  documents: string[]
  topN?: number
  /** undefined: answer with documents only when the upstream did */
  returnDocuments?: boolean
  /** the client's own body: compatible servers get it with the model replaced and the documents as strings */
  body: Record<string, unknown>
}

/** A bound on one request's work; vendors refuse lower counts themselves (Cohere advises at most 1,000, DashScope 500). */
const MAX_DOCUMENTS = 10_000

/** `POST /v1/rerank` in the Cohere/Jina shape: `documents` as strings or `{text}` objects; billed on query + documents tokens. */
export function decodeRerank(raw: unknown): RerankRequest {
  const body = objectBody(raw)
  const model = requiredString(body, 'model')
  const query = requiredString(body, 'query')
  const documents = documentTexts(body.documents)
  const topN = optionalInteger(body, 'top_n', 1, MAX_DOCUMENTS)
  const returnDocuments = optionalBoolean(body, 'return_documents')
  return { model, stream: false, meter: textsMeter(model, [query, ...documents]), query, documents, topN, returnDocuments, body }
}

function documentTexts(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw new BadRequestError('documents is required: a non-empty array of strings or {"text": …} objects', 'documents')
  if (value.length > MAX_DOCUMENTS) throw new BadRequestError(`documents holds ${value.length} items; at most ${MAX_DOCUMENTS} are allowed`, 'documents')
  return value.map((doc, i) => {
    if (typeof doc === 'string') return doc
    const text = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as { text?: unknown }).text : undefined
    if (typeof text === 'string') return text
    const param = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? `documents[${i}].text` : `documents[${i}]`
    throw new BadRequestError(`documents[${i}] must be a string or an object with a string "text"`, param)
  })
}
