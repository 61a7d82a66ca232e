import { parseGeminiModels } from './model-lists'
import type { Provider } from './types'

/** Google AI Studio (Gemini API), native generateContent protocol. */
export const gemini: Provider = {
  type: 24,
  id: 'gemini',
  name: 'Google Gemini',
  protocols: ['gemini'],
  endpoints: {
    gemini: {
      path: '/v1beta/models/{model}:generateContent',
      streamPath: '/v1beta/models/{model}:streamGenerateContent?alt=sse',
    },
  },
  // an array input to /v1/embeddings is one batchEmbedContents call; Imagen models draw through `:predict`
  operations: {
    embeddings: { path: '/v1beta/models/{model}:batchEmbedContents', dialect: 'gemini' },
    'image-generations': { path: '/v1beta/models/{model}:predict', dialect: 'imagen' },
  },
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  auth: 'x-goog-api-key',
  keyRequired: true,
  modelList: { path: '/v1beta/models?pageSize=1000', parse: parseGeminiModels },
  testModel: 'gemini-2.5-flash',
  models: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-2.0-flash'],
  quirks: {},
}
