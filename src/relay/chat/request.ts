import type { Converted, IrRequest } from '../../ir'
import type { Protocol } from '../../protocols/types'
import type { RelayInput } from '../types'
import type { SplicedBody } from '../body/spliced-body'

/** The client's chat request, decoded as far as the relay needs it. */
export interface ChatRequest {
  /**
   * Model, stream flag, output cap …: the whole request for a body parsed whole; for a large body, what its
   * top-level fields say (its messages, tools … are not decoded: passthrough forwards them as they came).
   */
  head: IrRequest
  /** what decoding `head` noted */
  warnings: string[]
  /** the whole request, decoded and checked against the protocol's schema (a large body: parsed on the first call) */
  full(): IrRequest
  /** what decoding the whole request noted beyond `warnings` */
  fullWarnings(): string[]
  /** a large body decoded with its long strings cut (spliced-body.ts), for conversion; undefined when it cannot be */
  spliced(): SplicedRequest | undefined
  /** the request without its conversation (system, messages): what an answer's encoder echoes (model, tools, settings) */
  settings(): IrRequest
  /** the output cap (per output) metering set for a request that set none: every attempt's body carries it (`withOutputCap`) */
  outputCap?: number
}

/** The request with metering's decisions: the output cap it sends a request that set none with (meter.ts `outputCap`). */
export function withOutputCap(request: ChatRequest, meter: { outputCap?: number }): ChatRequest {
  return meter.outputCap === undefined ? request : { ...request, outputCap: meter.outputCap }
}

interface SplicedRequest extends Converted<IrRequest> {
  body: SplicedBody
}

export function chatRequest(client: Protocol, input: RelayInput): ChatRequest {
  const { body } = input
  if (body.whole) {
    const decoded = client.decodeRequest(body.view, { checked: input.bodyChecked })
    const ir = withPathOverrides(decoded.value, input)
    return { head: ir, warnings: decoded.warnings, full: () => ir, fullWarnings: () => [], spliced: () => undefined, settings: () => ir }
  }
  let whole: Converted<IrRequest> | undefined
  const full = () => (whole ??= decodedWhole(client, input))
  // Held as long as the body holds its cut: released while the upstream answers, the body lets go of the cut and this goes
  // with it (a 4 MB turn's is megabytes of objects), and a body read back is cut and decoded anew.
  const cuts = new WeakMap<SplicedBody, SplicedRequest | undefined>()
  const spliced = (): SplicedRequest | undefined => {
    const body = input.body.spliced()
    if (!body) return undefined
    if (!cuts.has(body)) cuts.set(body, decodedSpliced(client, input, body))
    return cuts.get(body)
  }
  let head: Converted<IrRequest>
  try {
    head = client.decodeRequest(body.view, { checked: true })
  } catch {
    head = full() // a stand-in the decoder cannot take: decode it all, so the error (if any) is the body's own
  }
  return {
    head: withPathOverrides(head.value, input),
    warnings: head.warnings,
    full: () => full().value,
    fullWarnings: () => full().warnings,
    spliced,
    settings: () => {
      if (whole) return whole.value
      const ir = spliced()?.value
      return ir ? { ...ir, system: [], messages: [] } : full().value
    },
  }
}

/** The whole body, checked against the schema here: the route checked only its top-level fields. */
function decodedWhole(client: Protocol, input: RelayInput): Converted<IrRequest> {
  const decoded = client.decodeRequest(input.body.parsed(), { checked: false })
  return { ...decoded, value: withPathOverrides(decoded.value, input) }
}

/** The body with its long strings cut, decoded as `decodedWhole` does; undefined when it cannot be (the whole body then says why). */
function decodedSpliced(client: Protocol, input: RelayInput, body: SplicedBody): SplicedRequest | undefined {
  try {
    const decoded = client.decodeRequest(body.parsed, { checked: false })
    return { ...decoded, value: withPathOverrides(decoded.value, input), body }
  } catch {
    return undefined
  }
}

function withPathOverrides(ir: IrRequest, input: RelayInput): IrRequest {
  if (input.pathModel === undefined && input.pathStream === undefined) return ir
  return { ...ir, model: input.pathModel ?? ir.model, stream: input.pathStream ?? ir.stream }
}
