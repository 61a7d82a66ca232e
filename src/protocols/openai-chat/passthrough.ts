import type { PassthroughContext, PassthroughPatch, UpstreamQuirks } from '../types.ts'

/**
 * A Chat Completions body on its way to a Chat Completions upstream: the mapped model, metering's output cap when the
 * client set none, and for a stream the
 * usage chunk asked for (metering needs it) unless the vendor refuses `stream_options`; the client gets that
 * chunk only if it asked.
 */
export function passthroughPatch({ body, upstreamModel, quirks, outputCap }: PassthroughContext): PassthroughPatch {
  const patch: Record<string, unknown> = {}
  let dropUsageChunk = false
  if (body.model !== upstreamModel) patch.model = upstreamModel
  // a request without a cap goes with metering's, in the field the vendor reads (OpenAI's reasoning models refuse max_tokens)
  if (outputCap !== undefined) patch[quirks.maxTokensField ?? 'max_tokens'] = outputCap
  if (body.stream === true && quirks.streamUsageOption !== false) {
    const options = (body.stream_options ?? {}) as Record<string, unknown>
    if (options.include_usage !== true) {
      patch.stream_options = { ...options, include_usage: true }
      dropUsageChunk = true
    }
  }
  return { patch, headers: {}, dropUsageChunk, warnings: [] }
}

/** OpenAI and Azure refuse `max_tokens` on reasoning models; Cohere, Mistral and Perplexity refuse `stream_options`. */
export function applyQuirks(body: Record<string, unknown>, quirks: UpstreamQuirks): void {
  if (quirks.maxTokensField === 'max_completion_tokens' && body.max_tokens !== undefined) {
    body.max_completion_tokens = body.max_tokens
    delete body.max_tokens
  }
  if (quirks.streamUsageOption === false) delete body.stream_options
}

export function probeBody(model: string, quirks: UpstreamQuirks): Record<string, unknown> {
  return { model, messages: [{ role: 'user', content: 'hi' }], [quirks.maxTokensField ?? 'max_tokens']: 16, stream: false }
}
