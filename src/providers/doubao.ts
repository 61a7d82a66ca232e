import { anthropicAt, openAiCompatible } from './openai-compatible'

/**
 * Doubao on Volcengine Ark (new-api's "VolcEngine"): OpenAI-compatible under `/api/v3`, Anthropic-compatible under
 * `/api/compatible` (pay-as-you-go keys; Bearer, as Ark documents it). The Coding Plan lives under other paths
 * (`/api/coding/v3`, `/api/coding`): see docs/providers.md.
 */
export const doubao = openAiCompatible({
  type: 45,
  id: 'doubao',
  name: 'Doubao (Volcengine Ark)',
  defaultBaseUrl: 'https://ark.cn-beijing.volces.com',
  chatPath: '/api/v3/chat/completions',
  extra: { anthropic: anthropicAt('/api/compatible/v1/messages', 'bearer') },
  testModel: 'doubao-1-5-lite-32k-250115',
  models: ['doubao-seed-1-6-250615', 'doubao-seed-1-6-flash-250615', 'doubao-1-5-pro-32k-250115', 'doubao-1-5-lite-32k-250115'],
  // its /embeddings answers floats only (see src/operations/embeddings/vendors.ts)
  dialects: { embeddings: 'floats' },
})
