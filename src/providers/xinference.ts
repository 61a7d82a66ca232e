import { openAiCompatible, openAiOperations } from './openai-compatible'

/**
 * Xorbits Inference, self-hosted: OpenAI-compatible at `/v1`, a key only when the server was started with auth.
 * Its models are whatever the server launched (the list comes from `/v1/models`); the suggestions are the
 * built-in names it launches most often.
 */
export const xinference = openAiCompatible({
  type: 47,
  id: 'xinference',
  name: 'Xinference',
  defaultBaseUrl: 'http://localhost:9997',
  keyRequired: false,
  testModel: 'qwen2.5-instruct',
  models: ['qwen3', 'qwen2.5-instruct', 'deepseek-r1-distill-qwen', 'llama-3.1-instruct', 'glm4-chat', 'bge-m3', 'bge-reranker-v2-m3'],
  quirks: { streamUsageOption: false },
  // its /embeddings answers floats only (see src/operations/embeddings/vendors.ts)
  dialects: { embeddings: 'floats' },
  // rerank models it launched answer at /v1/rerank in Jina's shape
  ownOperations: openAiOperations('/v1', ['rerank']),
})
