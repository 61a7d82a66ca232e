import { openAiOperations } from './openai-compatible'
import type { Provider } from './types'

/**
 * Jina AI serves embeddings (OpenAI's shape, but it refuses `encoding_format`: the `jina` dialect) and rerank (the
 * Cohere shape) only: no chat protocol, so its channels serve `/v1/embeddings` and `/v1/rerank`, chat requests pass
 * them by, and the channel test sends an embeddings call. Jina documents no model-list endpoint.
 */
export const jina: Provider = {
  type: 38,
  id: 'jina',
  name: 'Jina AI',
  protocols: [],
  endpoints: {},
  operations: openAiOperations('/v1', ['embeddings', 'rerank'], { embeddings: 'jina' }),
  defaultBaseUrl: 'https://api.jina.ai',
  auth: 'bearer',
  keyRequired: true,
  testModel: 'jina-embeddings-v3',
  models: ['jina-embeddings-v4', 'jina-embeddings-v3', 'jina-clip-v2', 'jina-reranker-m0', 'jina-reranker-v2-base-multilingual'],
  quirks: {},
  note: 'Jina serves embeddings and rerank only: chat requests never route to it, and its channel test is an embeddings call.',
}
