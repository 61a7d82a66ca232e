import type { PassthroughContext, PassthroughPatch } from '../types.ts'

/** Headers a client sends that change what an Anthropic upstream accepts (betas, API version). */
const FORWARDED = ['anthropic-beta', 'anthropic-version']

/**
 * A Messages body on its way to a Messages upstream: the mapped model, the client's beta and version headers,
 * and without the thinking blocks Claude Code sends back unsigned (Anthropic rejects those).
 */
export function passthroughPatch({ body, objectsOfType, clientHeaders, upstreamModel }: PassthroughContext): PassthroughPatch {
  const patch: Record<string, unknown> = {}
  const headers: Record<string, string> = {}
  const warnings: string[] = []
  if (body.model !== upstreamModel) patch.model = upstreamModel
  for (const name of FORWARDED) {
    const value = clientHeaders.get(name)
    if (value) headers[name] = value
  }
  // the scan found the thinking blocks: only their signatures are read (Claude Code sends signed ones every turn)
  if (objectsOfType('thinking', SIGNATURE).some((block) => !block.signature)) patch.messages = dropUnsignedThinking(body.messages, warnings)
  return { patch, headers, dropUsageChunk: false, warnings }
}

export function probeBody(model: string): Record<string, unknown> {
  return { model, max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] }
}

const SIGNATURE = ['signature']

const isUnsignedThinking = (block: unknown): boolean => {
  const b = block as { type?: unknown; signature?: unknown } | null
  return b?.type === 'thinking' && !b.signature
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
