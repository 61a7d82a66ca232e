import type { PassthroughContext, PassthroughPatch } from '../types.ts'

/** Headers a client sends that change what an Anthropic upstream accepts (betas, API version). */
const FORWARDED = ['anthropic-beta', 'anthropic-version']

/**
 * A Messages body on its way to a Messages upstream: the mapped model, the client's beta and version headers,
 * and without the thinking blocks Claude Code sends back unsigned (Anthropic rejects those).
 */
export function passthroughPatch({ body, clientHeaders, upstreamModel }: PassthroughContext): PassthroughPatch {
  const patch: Record<string, unknown> = {}
  const headers: Record<string, string> = {}
  const warnings: string[] = []
  if (body.model !== upstreamModel) patch.model = upstreamModel
  for (const name of FORWARDED) {
    const value = clientHeaders.get(name)
    if (value) headers[name] = value
  }
  if (hasUnsignedThinking(body.messages)) patch.messages = dropUnsignedThinking(body.messages, warnings)
  return { patch, headers, dropUsageChunk: false, warnings }
}

export function probeBody(model: string): Record<string, unknown> {
  return { model, max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] }
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
