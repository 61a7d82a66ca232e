import { openAiCompatible } from './openai-compatible'

/** Submodel: an OpenAI-compatible host of open models (chat completions only, as new-api's adaptor serves it). */
export const submodel = openAiCompatible({
  type: 53,
  id: 'submodel',
  name: 'Submodel',
  defaultBaseUrl: 'https://llm.submodel.ai',
  testModel: 'deepseek-ai/DeepSeek-V3-0324',
  models: ['deepseek-ai/DeepSeek-V3-0324', 'deepseek-ai/DeepSeek-R1-0528', 'Qwen/Qwen3-235B-A22B-Instruct-2507', 'Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8', 'zai-org/GLM-4.5-FP8'],
})
