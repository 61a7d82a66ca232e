import type { PassthroughContext, PassthroughPatch } from '../types.ts'

/** A Responses body on its way to a Responses upstream: only the mapped model changes. */
export function passthroughPatch({ body, upstreamModel }: PassthroughContext): PassthroughPatch {
  return { patch: body.model !== upstreamModel ? { model: upstreamModel } : {}, headers: {}, dropUsageChunk: false, warnings: [] }
}

export function probeBody(model: string): Record<string, unknown> {
  return { model, input: 'hi', max_output_tokens: 16, store: false }
}
