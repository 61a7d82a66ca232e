import { openAiCompatible } from './openai-compatible'

/** Local Ollama through its OpenAI-compatible API at /v1; works without a key. */
export const ollama = openAiCompatible({
  type: 4,
  id: 'ollama',
  name: 'Ollama',
  defaultBaseUrl: 'http://localhost:11434',
  keyRequired: false,
  testModel: 'llama3.2',
  models: ['llama3.2', 'llama3.1', 'qwen2.5', 'mistral', 'gemma3'],
})
