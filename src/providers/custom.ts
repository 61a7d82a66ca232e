import { openAiCompatible, openAiOperations } from './openai-compatible'

/** Any OpenAI-compatible server; the channel must give its base URL. */
export const custom = openAiCompatible({
  type: 8,
  id: 'custom',
  name: 'Custom (OpenAI-compatible)',
  defaultBaseUrl: '',
  testModel: 'gpt-4o-mini',
  models: [],
  // rerank (vLLM, Xinference, TEI-style servers in Jina's shape), moderations and legacy completions where a server has them
  ownOperations: openAiOperations('/v1', ['rerank', 'moderations', 'completions']),
  // what OpenAI-compatible servers commonly serve besides chat (vLLM, LocalAI, Groq's audio, image servers)
  operations: ['embeddings', 'image-generations', 'image-edits', 'speech', 'transcriptions', 'translations'],
})
