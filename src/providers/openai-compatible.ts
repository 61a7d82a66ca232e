import { parseDataIds } from './model-lists'
import type { EndpointSpec, Provider, ProviderQuirks, ProtocolId } from './types'

export const OPENAI_CHAT: EndpointSpec = { path: '/v1/chat/completions' }
export const OPENAI_RESPONSES: EndpointSpec = { path: '/v1/responses' }
export const ANTHROPIC_MESSAGES: EndpointSpec = {
  path: '/v1/messages',
  auth: 'x-api-key',
  headers: { 'anthropic-version': '2023-06-01' },
}

interface CompatibleInput {
  type: number
  id: string
  name: string
  defaultBaseUrl: string
  testModel: string
  models: readonly string[]
  quirks?: ProviderQuirks
  /** Extra protocols after openai-chat (e.g. an anthropic-compatible endpoint). */
  extra?: Partial<Record<ProtocolId, EndpointSpec>>
  keyRequired?: boolean
  headers?: Record<string, string>
}

/** A vendor speaking OpenAI Chat Completions at `/v1/chat/completions` with a Bearer key. */
export function openAiCompatible(input: CompatibleInput): Provider {
  const extra = input.extra ?? {}
  return {
    type: input.type,
    id: input.id,
    name: input.name,
    protocols: ['openai-chat', ...(Object.keys(extra) as ProtocolId[])],
    endpoints: { 'openai-chat': OPENAI_CHAT, ...extra },
    defaultBaseUrl: input.defaultBaseUrl,
    auth: 'bearer',
    keyRequired: input.keyRequired ?? true,
    headers: input.headers,
    modelList: { path: '/v1/models', protocol: 'openai-chat', parse: parseDataIds },
    testModel: input.testModel,
    models: input.models,
    quirks: { maxTokensField: 'max_tokens', streamUsageOption: true, ...input.quirks },
  }
}
