import { ANTHROPIC_MESSAGES, openAiCompatible } from './openai-compatible'

/** Moonshot (Kimi): OpenAI-compatible, plus an Anthropic-compatible endpoint under /anthropic. */
export const moonshot = openAiCompatible({
  type: 25,
  id: 'moonshot',
  name: 'Moonshot',
  defaultBaseUrl: 'https://api.moonshot.cn',
  extra: { anthropic: { ...ANTHROPIC_MESSAGES, path: '/anthropic/v1/messages' } },
  testModel: 'moonshot-v1-8k',
  models: ['kimi-k2-0905-preview', 'kimi-k2-turbo-preview', 'kimi-latest', 'moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k'],
})
