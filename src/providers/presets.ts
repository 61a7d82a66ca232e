import type { ProviderQuirks } from './types'

/**
 * OpenAI-compatible services new-api has no channel type for. They are channels of type 8 (Custom) with the
 * service's base URL: a new-api or one-api gateway stores them that way (or as type 1 with a base URL), so they
 * import as they are, and Tollgate invents no type number a later new-api might give to something else.
 * The console offers these base URLs when the type is Custom.
 */
export interface ChannelPreset {
  id: string
  name: string
  type: 8
  /** What the channel's base URL is set to; the Custom provider adds `/v1/chat/completions` and `/v1/models`. */
  baseUrl: string
  keyRequired: boolean
  testModel: string
  models: readonly string[]
  /** How it differs from the Custom provider's defaults, when it does (informational: the channel is type 8). */
  quirks?: ProviderQuirks
}

export const PRESETS: readonly ChannelPreset[] = [
  {
    id: 'groq',
    name: 'Groq',
    type: 8,
    baseUrl: 'https://api.groq.com/openai',
    keyRequired: true,
    testModel: 'llama-3.1-8b-instant',
    // the whisper models serve /v1/audio/transcriptions (and whisper-large-v3 translations) under /openai/v1
    models: ['llama-3.3-70b-versatile', 'llama-3.1-8b-instant', 'openai/gpt-oss-120b', 'openai/gpt-oss-20b', 'qwen/qwen3-32b', 'whisper-large-v3', 'whisper-large-v3-turbo'],
  },
  {
    id: 'together',
    name: 'Together AI',
    type: 8,
    baseUrl: 'https://api.together.xyz',
    keyRequired: true,
    testModel: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
    models: ['meta-llama/Llama-3.3-70B-Instruct-Turbo', 'deepseek-ai/DeepSeek-V3', 'Qwen/Qwen2.5-72B-Instruct-Turbo', 'openai/gpt-oss-120b'],
  },
  {
    id: 'fireworks',
    name: 'Fireworks AI',
    type: 8,
    baseUrl: 'https://api.fireworks.ai/inference',
    keyRequired: true,
    testModel: 'accounts/fireworks/models/llama-v3p1-8b-instruct',
    models: ['accounts/fireworks/models/llama-v3p3-70b-instruct', 'accounts/fireworks/models/llama-v3p1-8b-instruct', 'accounts/fireworks/models/deepseek-v3', 'accounts/fireworks/models/gpt-oss-120b'],
  },
  {
    id: 'cerebras',
    name: 'Cerebras',
    type: 8,
    baseUrl: 'https://api.cerebras.ai',
    keyRequired: true,
    testModel: 'llama3.1-8b',
    models: ['llama-3.3-70b', 'llama3.1-8b', 'qwen-3-32b', 'gpt-oss-120b'],
  },
  {
    // vLLM needs no key unless started with --api-key; Custom channels want one, any text (e.g. EMPTY) does
    id: 'vllm',
    name: 'vLLM',
    type: 8,
    baseUrl: 'http://localhost:8000',
    keyRequired: false,
    testModel: '',
    models: [],
  },
]
