import { openAiCompatible } from './openai-compatible'

/** Any OpenAI-compatible server; the channel must give its base URL. */
export const custom = openAiCompatible({
  type: 8,
  id: 'custom',
  name: 'Custom (OpenAI-compatible)',
  defaultBaseUrl: '',
  testModel: 'gpt-4o-mini',
  models: [],
})
