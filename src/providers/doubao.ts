import { anthropicAt, openAiCompatible } from './openai-compatible'

/**
 * Doubao on Volcengine Ark (new-api's "VolcEngine"): OpenAI-compatible under `/api/v3`, Anthropic-compatible under
 * `/api/compatible` (pay-as-you-go keys; Bearer, as Ark documents it). The Coding Plan's keys work only under
 * `/api/coding` (Anthropic's paths) and `/api/coding/v3` (OpenAI's): a channel whose base URL is the plan's reaches those.
 */
export const doubao = openAiCompatible({
  type: 45,
  id: 'doubao',
  name: 'Doubao (Volcengine Ark)',
  defaultBaseUrl: 'https://ark.cn-beijing.volces.com',
  chatPath: '/api/v3/chat/completions',
  extra: { anthropic: anthropicAt('/api/compatible/v1/messages', 'bearer') },
  plans: [
    {
      word: 'doubao-coding-plan', name: 'Doubao Coding Plan', baseUrl: 'https://ark.cn-beijing.volces.com/api/coding', models: ['doubao-seed-code-preview-latest'],
      paths: { 'openai-chat': '/v3/chat/completions', anthropic: '/v1/messages' },
    },
  ],
  testModel: 'doubao-1-5-lite-32k-250115',
  models: ['doubao-seed-1-6-250615', 'doubao-seed-1-6-flash-250615', 'doubao-1-5-pro-32k-250115', 'doubao-1-5-lite-32k-250115'],
  // its /embeddings answers floats only (see src/operations/embeddings/vendors.ts); Seedream draws in OpenAI's shape
  operations: ['embeddings', 'image-generations'],
  dialects: { embeddings: 'floats' },
})
