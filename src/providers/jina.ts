import { openAiOperations } from './openai-compatible'
import type { Provider } from './types'

/**
 * Jina AI serves embeddings (OpenAI's shape) and rerank (the Cohere shape) only: no chat protocol, so its channels
 * serve `/v1/embeddings` and `/v1/rerank` and chat requests pass them by.
 */
export const jina: Provider = {
  type: 38,
  id: 'jina',
  name: 'Jina AI',
  protocols: [],
  endpoints: {},
  operations: openAiOperations('/v1', ['embeddings', 'rerank']),
  defaultBaseUrl: 'https://api.jina.ai',
  auth: 'bearer',
  keyRequired: true,
  testModel: 'jina-embeddings-v3',
  models: ['jina-embeddings-v4', 'jina-embeddings-v3', 'jina-clip-v2', 'jina-reranker-m0', 'jina-reranker-v2-base-multilingual'],
  quirks: {},
  note: 'Jina serves embeddings and rerank only: chat requests never route to it.',
}
