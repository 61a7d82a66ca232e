import type { IrRequest } from '../ir'
import type { ProtocolId, UpstreamProtocol } from '../protocols/types'
import type { Provider } from '../providers/types'
import { patchTopLevel } from './raw-json-patch'

export interface UpstreamBody {
  text: string
  /** client protocol's extra headers to forward (passthrough only) */
  headers: Record<string, string>
  /** the upstream was asked for stream usage the client did not request: drop that event again */
  dropUsageChunk: boolean
  warnings: string[]
}

export interface BodyInput {
  clientProtocol: ProtocolId
  body: Record<string, unknown>
  rawBody: string
  clientHeaders: Headers
  ir: IrRequest
  upstreamModel: string
  provider: Provider
}

/** Headers a client sends that change what an Anthropic upstream accepts (betas, API version). */
const ANTHROPIC_FORWARDED = ['anthropic-beta', 'anthropic-version']

/**
 * Same protocol: the client's bytes, unchanged (only the patched top-level values are rewritten) unless the model is mapped, the chat stream needs usage
 * asked for, or Claude Code sent back a thinking block without a signature (Anthropic rejects those).
 */
export function passthroughBody(input: BodyInput): UpstreamBody {
  const { body, clientProtocol } = input
  const patch: Record<string, unknown> = {}
  const headers: Record<string, string> = {}
  let dropUsageChunk = false
  if (clientProtocol !== 'gemini' && body.model !== input.upstreamModel) patch.model = input.upstreamModel
  if (clientProtocol === 'openai-chat' && body.stream === true && input.provider.quirks.streamUsageOption !== false) {
    const options = (body.stream_options ?? {}) as Record<string, unknown>
    if (options.include_usage !== true) {
      patch.stream_options = { ...options, include_usage: true }
      dropUsageChunk = true
    }
  }
  const warnings: string[] = []
  if (clientProtocol === 'anthropic') {
    for (const name of ANTHROPIC_FORWARDED) {
      const value = input.clientHeaders.get(name)
      if (value) headers[name] = value
    }
    if (hasUnsignedThinking(body.messages)) patch.messages = dropUnsignedThinking(body.messages, warnings)
  }
  const text = Object.keys(patch).length ? (patchTopLevel(input.rawBody, patch) ?? JSON.stringify({ ...body, ...patch })) : input.rawBody
  return { text, headers, dropUsageChunk, warnings }
}

/** Different protocols: encode the neutral request for the upstream's protocol. */
export function convertedBody(input: BodyInput, upstream: UpstreamProtocol): UpstreamBody {
  const encoded = upstream.encodeRequest({ ...input.ir, model: input.upstreamModel })
  const value = encoded.value
  // OpenAI and Azure chat refuse max_tokens on reasoning models: the provider names the field it takes.
  if (upstream.id === 'openai-chat' && input.provider.quirks.maxTokensField === 'max_completion_tokens' && value.max_tokens !== undefined) {
    value.max_completion_tokens = value.max_tokens
    delete value.max_tokens
  }
  // Vendors that refuse `stream_options` (Cohere, Mistral, Perplexity) get streams without it, as on passthrough.
  if (upstream.id === 'openai-chat' && input.provider.quirks.streamUsageOption === false) delete value.stream_options
  return { text: JSON.stringify(value), headers: {}, dropUsageChunk: false, warnings: encoded.warnings }
}

const isUnsignedThinking = (block: unknown): boolean => {
  const b = block as { type?: unknown; signature?: unknown } | null
  return b?.type === 'thinking' && !b.signature
}

/** Walks the parsed messages, not the raw text: two substring scans of a 23 KB Claude Code body cost ~20 µs. */
function hasUnsignedThinking(messages: unknown): boolean {
  if (!Array.isArray(messages)) return false
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content
    if (Array.isArray(content) && content.some(isUnsignedThinking)) return true
  }
  return false
}

function dropUnsignedThinking(messages: unknown, warnings: string[]): unknown {
  if (!Array.isArray(messages)) return messages
  return messages.map((message) => {
    const content = (message as { content?: unknown }).content
    if (!Array.isArray(content)) return message
    const kept = content.filter((block) => !isUnsignedThinking(block))
    if (kept.length === content.length) return message
    warnings.push('dropped a thinking block sent back without a signature')
    return { ...message, content: kept }
  })
}
