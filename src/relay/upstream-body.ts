import type { IrRequest } from '../ir'
import type { Protocol, ProtocolId, UpstreamProtocol } from '../protocols/types'
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

/**
 * Same protocol: the client's bytes, unchanged except the top-level fields the protocol patches (its
 * `passthroughPatch`: the mapped model, a stream's usage option, Claude Code's unsigned thinking blocks …).
 */
export function passthroughBody(input: BodyInput, client: Protocol): UpstreamBody {
  const out = client.passthroughPatch?.({ body: input.body, clientHeaders: input.clientHeaders, upstreamModel: input.upstreamModel, quirks: input.provider.quirks })
  if (!out) return { text: input.rawBody, headers: {}, dropUsageChunk: false, warnings: [] }
  const { patch } = out
  const text = Object.keys(patch).length ? (patchTopLevel(input.rawBody, patch) ?? JSON.stringify({ ...input.body, ...patch })) : input.rawBody
  return { text, headers: out.headers, dropUsageChunk: out.dropUsageChunk, warnings: out.warnings }
}

/** Different protocols: encode the neutral request for the upstream's protocol, with the vendor's quirks. */
export function convertedBody(input: BodyInput, upstream: UpstreamProtocol): UpstreamBody {
  const encoded = upstream.encodeRequest({ ...input.ir, model: input.upstreamModel })
  upstream.applyQuirks?.(encoded.value, input.provider.quirks)
  return { text: JSON.stringify(encoded.value), headers: {}, dropUsageChunk: false, warnings: encoded.warnings }
}
