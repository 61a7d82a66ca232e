import { parseDataIds } from './model-lists'
import { ANTHROPIC_MESSAGES } from './openai-compatible'
import type { Provider } from './types'

export const anthropic: Provider = {
  type: 14,
  id: 'anthropic',
  name: 'Anthropic',
  protocols: ['anthropic'],
  endpoints: { anthropic: ANTHROPIC_MESSAGES },
  defaultBaseUrl: 'https://api.anthropic.com',
  auth: 'x-api-key',
  keyRequired: true,
  modelList: { path: '/v1/models?limit=1000', parse: parseDataIds },
  testModel: 'claude-haiku-4-5',
  models: [
    'claude-opus-4-1',
    'claude-opus-4-0',
    'claude-sonnet-4-5',
    'claude-sonnet-4-0',
    'claude-haiku-4-5',
    'claude-3-7-sonnet-latest',
    'claude-3-5-haiku-latest',
  ],
  quirks: {},
}
