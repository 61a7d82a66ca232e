import type { Provider } from './types'

/**
 * Jina AI serves embeddings and rerank only. The relay speaks chat protocols so far, so a Jina channel can be
 * stored (keys sealed, models listed) but is never routed, and its test says why rather than faking a chat.
 */
export const jina: Provider = {
  type: 38,
  id: 'jina',
  name: 'Jina AI',
  protocols: [],
  endpoints: {},
  defaultBaseUrl: 'https://api.jina.ai',
  auth: 'bearer',
  keyRequired: true,
  testModel: 'jina-embeddings-v3',
  models: ['jina-embeddings-v4', 'jina-embeddings-v3', 'jina-clip-v2', 'jina-reranker-m0', 'jina-reranker-v2-base-multilingual'],
  quirks: {},
  note: 'Jina serves embeddings and rerank, which Tollgate does not relay yet: the channel is kept but never routed.',
}
