import { OPENAI_RESPONSES, openAiCompatible } from './openai-compatible'

export const xai = openAiCompatible({
  type: 48,
  id: 'xai',
  name: 'xAI',
  defaultBaseUrl: 'https://api.x.ai',
  extra: { 'openai-responses': OPENAI_RESPONSES },
  testModel: 'grok-3-mini',
  models: ['grok-4', 'grok-4-fast-reasoning', 'grok-4-fast-non-reasoning', 'grok-3', 'grok-3-mini', 'grok-code-fast-1'],
})
