import { parseCohereModels } from './model-lists'
import { openAiCompatible } from './openai-compatible'
import type { Provider } from './types'

/**
 * Cohere: chat through its OpenAI-compatible Compatibility API (`/compatibility/v1`, Bearer key), which refuses
 * `stream_options`, so streams go without it. Embeddings through the native `/v2/embed` (the `cohere` dialect: the
 * Compatibility API cannot take the `input_type` embed v3+ models need, nor a size). The model list is Cohere's own
 * `/v1/models`, its chat, embed and rerank models. Both need the base URL at the host root.
 */
const compatible = openAiCompatible({
  type: 34,
  id: 'cohere',
  name: 'Cohere',
  defaultBaseUrl: 'https://api.cohere.ai',
  chatPath: '/compatibility/v1/chat/completions',
  modelList: { path: '/v1/models?page_size=1000', protocol: 'openai-chat', parse: parseCohereModels },
  testModel: 'command-r7b-12-2024',
  models: ['command-a-03-2025', 'command-a-reasoning-08-2025', 'command-a-vision-07-2025', 'command-r-plus-08-2024', 'command-r-08-2024', 'command-r7b-12-2024'],
  quirks: { streamUsageOption: false },
  // rerank through the native v2 API (documents as strings, answered without them)
  ownOperations: { rerank: { path: '/v2/rerank', dialect: 'cohere' } },
  note: 'Chat through the Compatibility API, embeddings through /v2/embed: keep the base URL at the host root (https://api.cohere.ai).',
})

export const cohere: Provider = { ...compatible, operations: { ...compatible.operations, embeddings: { path: '/v2/embed', dialect: 'cohere' } } }
