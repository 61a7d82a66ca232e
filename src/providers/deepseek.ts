import { ANTHROPIC_MESSAGES, openAiCompatible } from './openai-compatible'

/** DeepSeek: OpenAI-compatible, plus an Anthropic-compatible endpoint under /anthropic. */
export const deepseek = openAiCompatible({
  type: 43,
  id: 'deepseek',
  name: 'DeepSeek',
  defaultBaseUrl: 'https://api.deepseek.com',
  extra: { anthropic: { ...ANTHROPIC_MESSAGES, path: '/anthropic/v1/messages' } },
  testModel: 'deepseek-chat',
  models: ['deepseek-chat', 'deepseek-reasoner'],
  // fill-in-the-middle (deepseek-chat) is a beta: OpenAI's completions shape under https://api.deepseek.com/beta
  ownOperations: { completions: { path: '/beta/completions', dialect: 'openai' } },
})
