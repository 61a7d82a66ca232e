import { anthropicAt, openAiCompatible } from './openai-compatible'

/**
 * Alibaba Cloud Model Studio (DashScope), new-api's "Ali": OpenAI-compatible mode under `/compatible-mode/v1`,
 * and the Anthropic-compatible endpoint under `/apps/anthropic` (what Claude Code is pointed at), one key for both.
 * International accounts use `https://dashscope-intl.aliyuncs.com` as the base URL.
 */
export const qwen = openAiCompatible({
  type: 17,
  id: 'qwen',
  name: 'Qwen (Alibaba DashScope)',
  defaultBaseUrl: 'https://dashscope.aliyuncs.com',
  chatPath: '/compatible-mode/v1/chat/completions',
  extra: { anthropic: anthropicAt('/apps/anthropic/v1/messages') },
  testModel: 'qwen-turbo',
  models: ['qwen3-max', 'qwen-plus', 'qwen-flash', 'qwen-turbo', 'qwen3-coder-plus', 'qwen3-coder-flash'],
  // its /embeddings answers floats only (see src/operations/embeddings/vendors.ts)
  dialects: { embeddings: 'floats' },
  // rerank (gte-rerank-v2, qwen3-rerank) through DashScope's own text-rerank API; completions (Qwen coder FIM) in compatible mode
  ownOperations: {
    rerank: { path: '/api/v1/services/rerank/text-rerank/text-rerank', dialect: 'dashscope' },
    completions: { path: '/compatible-mode/v1/completions', dialect: 'openai' },
    // Wanx and Qwen-Image through DashScope's asynchronous text-to-image (a task polled within the attempt)
    'image-generations': { path: '/api/v1/services/aigc/text2image/image-synthesis', dialect: 'dashscope' },
  },
})
