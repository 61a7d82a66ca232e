import type { Operation } from '../types'
import { cohereRerank } from './cohere'
import { compatibleRerank } from './compatible'
import { dashscopeRerank } from './dashscope'
import { decodeRerank, type RerankRequest } from './request'

export type { RerankRequest } from './request'

/** `POST /v1/rerank` (the Cohere/Jina shape new-api serves), billed per input token or per call. */
export const rerank: Operation<RerankRequest> = {
  id: 'rerank',
  path: '/v1/rerank',
  body: 'json',
  decode: decodeRerank,
  dialects: { rerank: compatibleRerank, cohere: cohereRerank, dashscope: dashscopeRerank },
  probe: (model) => ({ model, query: 'hi', documents: ['hi'], top_n: 1 }),
}
