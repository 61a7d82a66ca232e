import { openAiCompatible } from './openai-compatible'

/**
 * Perplexity Sonar: OpenAI-compatible chat at `/chat/completions` (no `/v1`), Bearer key. It reports usage in its
 * stream on its own and is strict about extra fields, so no `stream_options`; it has no model list endpoint.
 */
export const perplexity = openAiCompatible({
  type: 27,
  id: 'perplexity',
  name: 'Perplexity',
  defaultBaseUrl: 'https://api.perplexity.ai',
  chatPath: '/chat/completions',
  modelList: null,
  testModel: 'sonar',
  models: ['sonar', 'sonar-pro', 'sonar-reasoning', 'sonar-reasoning-pro', 'sonar-deep-research'],
  quirks: { streamUsageOption: false },
  note: 'Perplexity publishes no model list: fetch_models says so; pick the models from the list above.',
})
