import { openAiCompatible, openAiOperations } from './openai-compatible'

/**
 * Xorbits Inference, self-hosted: OpenAI-compatible at `/v1`, a key only when the server was started with auth.
 * Its models are whatever the server launched, so none are suggested and the list comes from `/v1/models`.
 */
export const xinference = openAiCompatible({
  type: 47,
  id: 'xinference',
  name: 'Xinference',
  defaultBaseUrl: 'http://localhost:9997',
  keyRequired: false,
  testModel: 'qwen2.5-instruct',
  models: [],
  quirks: { streamUsageOption: false },
  // its /embeddings answers floats only (see src/operations/embeddings/vendors.ts)
  dialects: { embeddings: 'floats' },
  // rerank models it launched answer at /v1/rerank in Jina's shape
  ownOperations: openAiOperations('/v1', ['rerank']),
})
