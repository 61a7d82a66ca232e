import { parseCohereModels } from './model-lists'
import { openAiCompatible } from './openai-compatible'

/**
 * Cohere through its OpenAI-compatible Compatibility API (`/compatibility/v1`, Bearer key). It refuses
 * `stream_options`, so streams go without it. The model list is Cohere's own `/v1/models` (chat models only).
 */
export const cohere = openAiCompatible({
  type: 34,
  id: 'cohere',
  name: 'Cohere',
  defaultBaseUrl: 'https://api.cohere.ai',
  chatPath: '/compatibility/v1/chat/completions',
  modelList: { path: '/v1/models?endpoint=chat&page_size=1000', protocol: 'openai-chat', parse: parseCohereModels },
  testModel: 'command-r7b-12-2024',
  models: ['command-a-03-2025', 'command-a-reasoning-08-2025', 'command-a-vision-07-2025', 'command-r-plus-08-2024', 'command-r-08-2024', 'command-r7b-12-2024'],
  quirks: { streamUsageOption: false },
  // rerank through the native v2 API (documents as strings, answered without them)
  ownOperations: { rerank: { path: '/v2/rerank', dialect: 'cohere' } },
  note: 'Chat only for now: Cohere embeddings and rerank wait for those endpoints in the relay.',
})
