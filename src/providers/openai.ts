import { parseDataIds } from './model-lists'
import { ALL_OPENAI_OPERATIONS, OPENAI_CHAT, OPENAI_RESPONSES, openAiOperations } from './openai-compatible'
import type { Provider } from './types'

export const openai: Provider = {
  type: 1,
  id: 'openai',
  name: 'OpenAI',
  protocols: ['openai-chat', 'openai-responses'],
  endpoints: { 'openai-chat': OPENAI_CHAT, 'openai-responses': OPENAI_RESPONSES },
  operations: openAiOperations('/v1', [...ALL_OPENAI_OPERATIONS, 'realtime']),
  // Sora through OpenAI's own Videos API (src/tasks/video/sora.ts)
  videos: 'sora',
  defaultBaseUrl: 'https://api.openai.com',
  auth: 'bearer',
  keyRequired: true,
  modelList: { path: '/v1/models', parse: parseDataIds },
  testModel: 'gpt-4o-mini',
  models: ['gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'gpt-4o', 'gpt-4o-mini', 'o3', 'o4-mini'],
  // reasoning models reject max_tokens on chat completions
  quirks: { maxTokensField: 'max_completion_tokens', streamUsageOption: true },
}
