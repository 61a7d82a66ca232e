import { SplicedTextError, type Converted, type IrRequest } from '../../ir'
import type { Protocol, ProtocolId, UpstreamProtocol } from '../../protocols/types'
import type { Provider } from '../../providers/types'
import type { ChatRequest } from './request'
import { bodyLimits, standInsOf, type RequestBody } from '../body/request-body'
import type { BodyPlaces } from '../body/places'
import { joinedPieces, type BodyPieces } from '../body/pieces'

export interface UpstreamBody {
  /** what is sent: the client's bytes (passthrough, patched or not), or the text a conversion encoded */
  payload: string | Uint8Array<ArrayBuffer> | Blob
  /** client protocol's extra headers to forward (passthrough only) */
  headers: Record<string, string>
  /** the upstream was asked for stream usage the client did not request: drop that event again */
  dropUsageChunk: boolean
  warnings: string[]
  /** a body made from the client's bytes (converted, patched) that holds most of them: where, so they can be made from it again */
  places?: BodyPlaces
}

export interface BodyInput {
  clientProtocol: ProtocolId
  body: RequestBody
  clientHeaders: Headers
  /** the client's request, decoded whole (a large body is parsed on the first call) or with its long strings cut */
  request: Pick<ChatRequest, 'full' | 'fullWarnings' | 'spliced' | 'outputCap'>
  upstreamModel: string
  provider: Provider
  /** the body goes to fetch as it is made: no connector signs it, no envelope wraps it (so it may be a Blob) */
  sendsAsIs: boolean
}

/**
 * Same protocol: the client's bytes, unchanged except the top-level fields the protocol patches (its
 * `passthroughPatch`: the mapped model, a stream's usage option, Claude Code's unsigned thinking blocks, metering's
 * output cap for a request that set none …).
 */
export function passthroughBody(input: BodyInput, client: Protocol): UpstreamBody {
  const { body } = input
  const ctx = { body: body.view, objectsOfType: body.objectsOfType, clientHeaders: input.clientHeaders, upstreamModel: input.upstreamModel, quirks: input.provider.quirks, outputCap: input.request.outputCap }
  let out = client.passthroughPatch?.(ctx)
  if (!out) return { payload: body.bytes, headers: {}, dropUsageChunk: false, warnings: [] }
  // a patch of a value a large body's view holds a stand-in for (its messages …) is made from the whole body
  const standIns = standInsOf(body.view)
  if (standIns?.size && Object.keys(out.patch).some((key) => standIns.has(key))) out = client.passthroughPatch!({ ...ctx, body: body.parsed() })
  const { patch } = out
  if (!Object.keys(patch).length) return { payload: body.bytes, headers: out.headers, dropUsageChunk: out.dropUsageChunk, warnings: out.warnings }
  const patched = body.patched(patch)
  const payload = patched ? madeFrom(patched, input.sendsAsIs) : JSON.stringify({ ...body.parsed(), ...patch })
  return { payload, places: patched?.places, headers: out.headers, dropUsageChunk: out.dropUsageChunk, warnings: out.warnings }
}

/**
 * Different protocols: encode the neutral request for the upstream's protocol, with the vendor's quirks. A large
 * body is converted with its long strings cut, their bytes copied from the client's body into the result
 * (spliced-body.ts); where that cannot be (a converter needs a whole text), from the body parsed whole.
 */
export function convertedBody(input: BodyInput, upstream: UpstreamProtocol): UpstreamBody {
  const spliced = input.request.spliced()
  if (spliced) {
    try {
      const encoded = encodeFor(input, upstream, spliced.value)
      const made = spliced.body.splice(JSON.stringify(encoded.value))
      return { payload: madeFrom(made, input.sendsAsIs), places: made.places, headers: {}, dropUsageChunk: false, warnings: [...spliced.warnings, ...encoded.warnings] }
    } catch (error) {
      if (!(error instanceof SplicedTextError)) throw error
    }
  }
  const { value, warnings } = encodeFor(input, upstream, input.request.full())
  return { payload: JSON.stringify(value), headers: {}, dropUsageChunk: false, warnings: [...input.request.fullWarnings(), ...warnings] }
}

function encodeFor(input: BodyInput, upstream: UpstreamProtocol, ir: IrRequest): Converted<Record<string, unknown>> {
  const cap = input.request.outputCap
  // a request without an output cap goes with metering's (metering/output-cap.ts), in whatever field the upstream reads
  const out = upstream.encodeRequest(cap === undefined ? { ...ir, model: input.upstreamModel } : { ...ir, model: input.upstreamModel, maxOutputTokens: cap })
  upstream.applyQuirks?.(out.value, input.provider.quirks)
  return out
}

/** The body as text, for what signs or re-reads it (connectors, wrapped bodies). */
export function payloadText(body: UpstreamBody): string {
  if (body.payload instanceof Blob) throw new Error('a shared body is made for fetch only (sharedPayload), after signing and wrapping')
  return typeof body.payload === 'string' ? body.payload : decoder.decode(body.payload)
}

/**
 * A body made from pieces of the client's bytes: from SHARED_SEND_BYTES, when it goes to fetch as it is, a Blob made
 * straight from the pieces (fetch shares a Blob, and copies bytes it is given, holding the copy until the answer);
 * otherwise the pieces joined.
 */
function madeFrom(made: BodyPieces, sendsAsIs: boolean): Uint8Array<ArrayBuffer> | Blob {
  return sendsAsIs && made.size >= bodyLimits.sharedSendBytes ? new Blob(made.pieces) : joinedPieces(made)
}

/** The client's unchanged bytes as fetch shares them: the request's Blob from SHARED_SEND_BYTES (request-body.ts `sendable`). */
export function sharedPayload(body: UpstreamBody, request: RequestBody): UpstreamBody {
  return body.payload === request.bytes ? { ...body, payload: request.sendable() } : body
}
const decoder = new TextDecoder()
