import { openAiCompatible, openAiOperations } from './openai-compatible'

export const siliconflow = openAiCompatible({
  type: 40,
  id: 'siliconflow',
  name: 'SiliconFlow',
  defaultBaseUrl: 'https://api.siliconflow.cn',
  testModel: 'Qwen/Qwen2.5-7B-Instruct',
  models: ['deepseek-ai/DeepSeek-V3', 'deepseek-ai/DeepSeek-R1', 'Qwen/Qwen3-32B', 'Qwen/Qwen2.5-7B-Instruct', 'THUDM/GLM-4-9B-0414'],
  // rerank in Jina's shape (BAAI/bge-reranker-v2-m3, Qwen3 rerankers); completions with `suffix` for coder models' FIM
  ownOperations: openAiOperations('/v1', ['rerank', 'completions']),
})
