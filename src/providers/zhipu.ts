import { anthropicAt, openAiCompatible } from './openai-compatible'

/**
 * Zhipu GLM (new-api's "ZhipuV4"): OpenAI-compatible under `/api/paas/v4`, Anthropic-compatible under
 * `/api/anthropic`, both with a Bearer key (as new-api sends it). The base URL is the host root, so both paths
 * hang off it; Z.ai's international platform is the same with `https://api.z.ai`.
 */
export const zhipu = openAiCompatible({
  type: 26,
  id: 'zhipu',
  name: 'Zhipu GLM',
  defaultBaseUrl: 'https://open.bigmodel.cn',
  chatPath: '/api/paas/v4/chat/completions',
  extra: { anthropic: anthropicAt('/api/anthropic/v1/messages', 'bearer') },
  testModel: 'glm-4.5-flash',
  models: ['glm-4.6', 'glm-4.5', 'glm-4.5-air', 'glm-4.5-flash', 'glm-4.5v'],
  // its /embeddings answers floats only (see src/operations/embeddings/vendors.ts)
  dialects: { embeddings: 'floats' },
})
