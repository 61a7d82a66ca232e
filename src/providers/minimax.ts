import { anthropicAt, openAiCompatible } from './openai-compatible'

/**
 * MiniMax: OpenAI-compatible at `/v1`, Anthropic-compatible at `/anthropic` (Bearer key, as new-api sends it).
 * `https://api.minimax.io` is the international platform; keys of the Chinese platform need
 * `https://api.minimaxi.com` (new-api's default was the older `https://api.minimax.chat`).
 */
export const minimax = openAiCompatible({
  type: 35,
  id: 'minimax',
  name: 'MiniMax',
  defaultBaseUrl: 'https://api.minimax.io',
  extra: { anthropic: anthropicAt('/anthropic/v1/messages', 'bearer') },
  testModel: 'MiniMax-M2',
  models: ['MiniMax-M2', 'MiniMax-M1', 'MiniMax-Text-01'],
})
