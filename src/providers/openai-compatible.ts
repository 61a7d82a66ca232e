import { parseDataIds } from './model-lists'
import type { AuthStyle, EndpointSpec, ModelListSpec, OperationEndpoint, OperationId, Provider, ProviderQuirks, ProtocolId } from './types'

export const OPENAI_CHAT: EndpointSpec = { path: '/v1/chat/completions' }
export const OPENAI_RESPONSES: EndpointSpec = { path: '/v1/responses' }
export const ANTHROPIC_MESSAGES: EndpointSpec = {
  path: '/v1/messages',
  auth: 'x-api-key',
  headers: { 'anthropic-version': '2023-06-01' },
}

/**
 * A vendor's Anthropic-compatible Messages endpoint at `path` (from the provider root), e.g. Zhipu's
 * `/api/anthropic/v1/messages`. Most take the key as `x-api-key`; some document only `Authorization: Bearer`.
 */
export function anthropicAt(path: string, auth: AuthStyle = 'x-api-key'): EndpointSpec {
  return { ...ANTHROPIC_MESSAGES, path, auth }
}

/** Where OpenAI puts each operation, under its `/v1` root. Rerank is the Cohere/Jina shape new-api serves. */
const OPENAI_OPERATION_PATHS: Record<OperationId, OperationEndpoint> = {
  embeddings: { path: '/embeddings', dialect: 'openai' },
  rerank: { path: '/rerank', dialect: 'rerank' },
  moderations: { path: '/moderations', dialect: 'openai' },
  completions: { path: '/completions', dialect: 'openai' },
  'image-generations': { path: '/images/generations', dialect: 'openai' },
  'image-edits': { path: '/images/edits', dialect: 'openai' },
  'image-variations': { path: '/images/variations', dialect: 'openai' },
  speech: { path: '/audio/speech', dialect: 'openai' },
  transcriptions: { path: '/audio/transcriptions', dialect: 'openai' },
  translations: { path: '/audio/translations', dialect: 'openai' },
  realtime: { path: '/realtime?model={model}', dialect: 'openai-realtime' },
}

/**
 * The listed operations in OpenAI's shape under `root` (`/v1`, or a vendor's `/compatible-mode/v1`); `dialects` names
 * the wire dialect where a vendor's copy differs from OpenAI's (src/operations/<op>/: Qwen's embeddings are `floats`).
 */
export function openAiOperations(
  root: string,
  ops: readonly OperationId[],
  dialects: Partial<Record<OperationId, string>> = {},
): Partial<Record<OperationId, OperationEndpoint>> {
  const out: Partial<Record<OperationId, OperationEndpoint>> = {}
  for (const op of ops) out[op] = { ...OPENAI_OPERATION_PATHS[op], path: root + OPENAI_OPERATION_PATHS[op].path, ...(dialects[op] ? { dialect: dialects[op] } : {}) }
  return out
}

/** What OpenAI itself serves besides chat. */
export const ALL_OPENAI_OPERATIONS: readonly OperationId[] = ['embeddings', 'moderations', 'completions', 'image-generations', 'image-edits', 'image-variations', 'speech', 'transcriptions', 'translations']

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
  /** Chat completions when not at `/v1/chat/completions` (Zhipu `/api/paas/v4/chat/completions`). */
  chatPath?: string
  /** The model list when not OpenAI's `/v1/models` at the chat path's root; `null`: the vendor has none. */
  modelList?: ModelListSpec | null
  /** Operations besides chat, in OpenAI's shape beside the chat path; default: embeddings (most compatible servers have it). */
  operations?: readonly OperationId[]
  /** The wire dialect of an operation where the vendor's copy differs from OpenAI's (see `openAiOperations`). */
  dialects?: Partial<Record<OperationId, string>>
  /** Operations at a path or in a dialect of the vendor's own (DeepSeek's FIM under `/beta`, Cohere's `/v2/rerank`), from the root. */
  ownOperations?: Partial<Record<OperationId, OperationEndpoint>>
  note?: string
  otherField?: Provider['otherField']
  foldBaseUrl?: Provider['foldBaseUrl']
  plans?: Provider['plans']
}

/**
 * A vendor speaking OpenAI Chat Completions with a Bearer key: at `/v1/chat/completions` unless `chatPath` says
 * otherwise, its model list beside it (`…/models`) unless `modelList` says otherwise.
 */
export function openAiCompatible(input: CompatibleInput): Provider {
  const extra = input.extra ?? {}
  const chatPath = input.chatPath ?? OPENAI_CHAT.path
  const listPath = chatPath.replace(/\/chat\/completions$/, '/models')
  const provider: Provider = {
    type: input.type,
    id: input.id,
    name: input.name,
    protocols: ['openai-chat', ...(Object.keys(extra) as ProtocolId[])],
    endpoints: { 'openai-chat': input.chatPath ? { path: chatPath } : OPENAI_CHAT, ...extra },
    operations: openAiOperations(chatPath.replace(/\/chat\/completions$/, ''), input.operations ?? ['embeddings'], input.dialects),
    defaultBaseUrl: input.defaultBaseUrl,
    auth: 'bearer',
    keyRequired: input.keyRequired ?? true,
    headers: input.headers,
    modelList: input.modelList === null ? undefined : (input.modelList ?? { path: listPath, protocol: 'openai-chat', parse: parseDataIds }),
    testModel: input.testModel,
    models: input.models,
    quirks: { maxTokensField: 'max_tokens', streamUsageOption: true, ...input.quirks },
  }
  if (input.ownOperations) provider.operations = { ...provider.operations, ...input.ownOperations }
  if (input.note) provider.note = input.note
  if (input.otherField) provider.otherField = input.otherField
  if (input.foldBaseUrl) provider.foldBaseUrl = input.foldBaseUrl
  if (input.plans) provider.plans = input.plans
  return provider
}
