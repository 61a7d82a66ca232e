import { openAiCompatible } from './openai-compatible'

export const openrouter = openAiCompatible({
  type: 20,
  id: 'openrouter',
  name: 'OpenRouter',
  defaultBaseUrl: 'https://openrouter.ai/api',
  headers: { 'x-title': 'Tollgate' },
  testModel: 'openai/gpt-4o-mini',
  models: ['openai/gpt-4o-mini', 'openai/gpt-4.1', 'anthropic/claude-sonnet-4', 'google/gemini-2.5-flash', 'deepseek/deepseek-chat'],
})
