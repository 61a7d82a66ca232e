import type { Provider } from './types'

/**
 * Dify (new-api type 37): an app's chat API. The key is the app's API key and picks the app; the channel's model
 * names are labels (Dify sends no model), so a channel usually serves one name such as `dify`. The conversation goes
 * as one query (protocols/dify). A self-hosted Dify sets its base URL (the API root without `/v1`).
 */
export const dify: Provider = {
  type: 37,
  id: 'dify',
  name: 'Dify',
  protocols: ['dify'],
  endpoints: { dify: { path: '/v1/chat-messages' } },
  defaultBaseUrl: 'https://api.dify.ai',
  auth: 'bearer',
  keyRequired: true,
  testModel: 'dify',
  models: ['dify'],
  quirks: {},
  note: 'An app per key: the conversation goes as one query; function tools and inline images are refused (Dify runs its own tools).',
}
