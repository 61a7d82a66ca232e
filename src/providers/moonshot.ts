import { ANTHROPIC_MESSAGES, openAiCompatible } from './openai-compatible'

/** Moonshot (Kimi): OpenAI-compatible, plus an Anthropic-compatible endpoint under /anthropic, and the Kimi Coding Plan. */
export const moonshot = openAiCompatible({
  type: 25,
  id: 'moonshot',
  name: 'Moonshot',
  defaultBaseUrl: 'https://api.moonshot.cn',
  extra: { anthropic: { ...ANTHROPIC_MESSAGES, path: '/anthropic/v1/messages' } },
  testModel: 'moonshot-v1-8k',
  // Kimi For Coding (new-api's `kimi-coding-plan`): Anthropic's paths under /coding (x-api-key), OpenAI's under /coding/v1
  plans: [
    {
      word: 'kimi-coding-plan', name: 'Kimi Coding Plan', baseUrl: 'https://api.kimi.com/coding', models: ['kimi-for-coding'],
      paths: { 'openai-chat': '/v1/chat/completions', anthropic: '/v1/messages' },
    },
  ],
  models: ['kimi-k2-0905-preview', 'kimi-k2-turbo-preview', 'kimi-latest', 'moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k'],
})
