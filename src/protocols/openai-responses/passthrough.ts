import type { PassthroughContext, PassthroughPatch } from '../types.ts'

/** A Responses body on its way to a Responses upstream: the mapped model, and metering's output cap when the client set none. */
export function passthroughPatch({ body, upstreamModel, outputCap }: PassthroughContext): PassthroughPatch {
  const patch: Record<string, unknown> = body.model !== upstreamModel ? { model: upstreamModel } : {}
  if (outputCap !== undefined) patch.max_output_tokens = outputCap
  return { patch, headers: {}, dropUsageChunk: false, warnings: [] }
}

export function probeBody(model: string): Record<string, unknown> {
  return { model, input: 'hi', max_output_tokens: 16, store: false }
}
