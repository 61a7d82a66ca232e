import { openAiCompatible } from './openai-compatible'

/** Mistral La Plateforme; rejects unknown request fields, so no `stream_options`. */
export const mistral = openAiCompatible({
  type: 42,
  id: 'mistral',
  name: 'Mistral',
  defaultBaseUrl: 'https://api.mistral.ai',
  testModel: 'mistral-small-latest',
  models: ['mistral-large-latest', 'mistral-medium-latest', 'mistral-small-latest', 'codestral-latest', 'ministral-8b-latest'],
  quirks: { streamUsageOption: false },
  // /v1/embeddings names `dimensions` `output_dimension` and refuses unknown fields
  dialects: { embeddings: 'mistral' },
  // Codestral's fill-in-the-middle: its own shape, answered to /v1/completions clients in OpenAI's
  ownOperations: { completions: { path: '/v1/fim/completions', dialect: 'mistral-fim' } },
})
