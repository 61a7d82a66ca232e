import { parseDataIds } from './model-lists'
import type { OperationEndpoint, Provider } from './types'

/**
 * Azure OpenAI: the channel base URL is the resource endpoint (`https://<name>.openai.azure.com`), the
 * model is the deployment name, the api-version comes from the channel's `other` (default: latest GA).
 */
export const azure: Provider = {
  type: 3,
  id: 'azure',
  name: 'Azure OpenAI',
  protocols: ['openai-chat'],
  endpoints: {
    'openai-chat': { path: '/openai/deployments/{model}/chat/completions?api-version={apiVersion}', auth: 'api-key' },
  },
  // the model (a deployment of an embedding model) names the path, as for chat
  operations: {
    embeddings: { path: '/openai/deployments/{model}/embeddings?api-version={apiVersion}', dialect: 'openai' },
    // images and audio likewise (speech, gpt-image-1 and image edits want a preview api-version in `other`)
    'image-generations': deployment('images/generations'),
    'image-edits': deployment('images/edits'),
    speech: deployment('audio/speech'),
    transcriptions: deployment('audio/transcriptions'),
    translations: deployment('audio/translations'),
    // the realtime WebSocket wants a realtime api-version in `other` (2024-10-01-preview or later)
    realtime: { path: '/openai/realtime?api-version={apiVersion}&deployment={model}', dialect: 'openai-realtime' },
  },
  defaultBaseUrl: '',
  auth: 'api-key',
  keyRequired: true,
  defaultApiVersion: '2024-10-21',
  otherField: { meaning: 'the api-version (plain, or JSON {"api_version": …}); default 2024-10-21', required: false },
  modelList: { path: '/openai/models?api-version={apiVersion}', parse: parseDataIds },
  testModel: 'gpt-4o-mini',
  models: ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini', 'o4-mini'],
  quirks: { maxTokensField: 'max_completion_tokens', streamUsageOption: true },
}

function deployment(operation: string): OperationEndpoint {
  return { path: `/openai/deployments/{model}/${operation}?api-version={apiVersion}`, dialect: 'openai' }
}
