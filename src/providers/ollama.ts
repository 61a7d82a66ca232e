import { openAiCompatible, openAiOperations } from './openai-compatible'

/**
 * Local Ollama through its OpenAI-compatible API at /v1; works without a key. Embeddings too at `/v1/embeddings`
 * rather than the native `/api/embed`: the same shape as every OpenAI client sends (encoding_format, dimensions) and
 * a `usage` to bill, so the client's body passes through. Token-id input it refuses itself.
 */
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
