import { openAiCompatible, openAiOperations } from './openai-compatible'

/** Local Ollama through its OpenAI-compatible API at /v1; works without a key. */
export const ollama = openAiCompatible({
  type: 4,
  id: 'ollama',
  name: 'Ollama',
  defaultBaseUrl: 'http://localhost:11434',
  keyRequired: false,
  // /v1/completions takes `suffix` (FIM with code models) and stream_options
  ownOperations: openAiOperations('/v1', ['completions']),
  testModel: 'llama3.2',
  models: ['llama3.2', 'llama3.1', 'qwen2.5', 'mistral', 'gemma3'],
})
