import { openAiCompatible, openAiOperations } from './openai-compatible'

/** Any OpenAI-compatible server; the channel must give its base URL. */
export const custom = openAiCompatible({
  type: 8,
  id: 'custom',
  name: 'Custom (OpenAI-compatible)',
  defaultBaseUrl: '',
  testModel: 'gpt-4o-mini',
  // suggestions only (the drawer's "Fetch models" asks the server itself): what self-hosted and aggregator
  // OpenAI-compatible servers commonly serve under these names
  models: ['gpt-4o-mini', 'deepseek-chat', 'deepseek-reasoner', 'qwen3-235b-a22b', 'qwen3-32b', 'llama-3.3-70b-instruct', 'glm-4.5', 'kimi-k2-instruct'],
  // rerank (vLLM, Xinference, TEI-style servers in Jina's shape), moderations and legacy completions where a server has them
  ownOperations: openAiOperations('/v1', ['rerank', 'moderations', 'completions']),
  // what OpenAI-compatible servers commonly serve besides chat (vLLM, LocalAI, Groq's audio, image servers)
  operations: ['embeddings', 'image-generations', 'image-edits', 'image-variations', 'speech', 'transcriptions', 'translations'],
})
