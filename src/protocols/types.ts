import type { TSchema } from '@sinclair/typebox'
import type { Converted, IrRequest, IrResponse, StreamEvent, Usage } from '../ir/index.ts'
import type { SseEvent } from './sse.ts'

export type ProtocolId = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini'

export const PROTOCOL_IDS: readonly ProtocolId[] = ['anthropic', 'openai-chat', 'openai-responses', 'gemini']

/** What one vendor's endpoint of a protocol does differently; the provider data sets it, the protocol reads it. */
export interface UpstreamQuirks {
  /** openai-chat: the field that caps output (`max_completion_tokens` for OpenAI/Azure, else `max_tokens`). */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens'
  /** openai-chat: upstream accepts `stream_options: {include_usage: true}`. Default true. */
  streamUsageOption?: boolean
}

/** A client body on its way to an upstream of the same protocol. */
export interface PassthroughContext {
  /**
   * The body's top-level fields. In a large body (relay/body/request-body.ts) a value over 4 KB (messages, tools …) is
   * not parsed and stands in as `[]`, `{}` or `'…'`: a patch that sets such a field is made again from the whole body.
   */
  body: Record<string, unknown>
  /** the objects whose `type` is one of the protocol's `scanWords.patchTypes`, each with only `keys` read (the rest is not parsed) */
  objectsOfType(type: string, keys: readonly string[]): Record<string, unknown>[]
  clientHeaders: Headers
  upstreamModel: string
  quirks: UpstreamQuirks
  /** the output cap (per output) metering sends a request that set none with: the protocol's own field is set to it */
  outputCap?: number
}

/** What that body needs: top-level fields to set (the rest stays byte for byte), headers to forward, our own usage chunk to drop again. */
export interface PassthroughPatch {
  patch: Record<string, unknown>
  headers: Record<string, string>
  dropUsageChunk: boolean
  warnings: string[]
}

/** Protocols only spoken to upstreams (no client speaks them to the gateway), plus the four. */
export type UpstreamProtocolId = ProtocolId | 'bedrock-converse' | 'bedrock-invoke' | 'vertex-anthropic' | 'dify' | 'coze' | 'codex' | 'hunyuan' | 'spark'

/** Bytes → SSE-shaped events: `SseParser` for SSE, the AWS event-stream parsers for Bedrock. */
export interface FrameParser {
  push(chunk: Uint8Array): SseEvent[]
  end(): SseEvent[]
  /** the bytes so far end between frames */
  idle(): boolean
  /** why the bytes are not this framing, once they are not */
  readonly invalid: string | undefined
  /** `dispatched` when `invalid` was found */
  readonly invalidAt: number
  /** events dispatched so far */
  readonly dispatched: number
}

/** An error to show a client, in neutral form; each protocol renders it as its own wire body. */
export interface WireError {
  status: number
  /** Stable machine code (`invalid_request`, `rate_limited`, `upstream_error` …). */
  code?: string
  message: string
  param?: string
}

/** Upstream → IR, event by event. Feed parsed SSE events; call `end()` when the upstream closes. */
export interface StreamDecoder {
  push(ev: SseEvent): StreamEvent[]
  /** Closes open blocks and emits `finish` if the upstream never did. */
  end(): StreamEvent[]
}

/** IR → client SSE frames, event by event. Never buffers the whole answer. */
export interface StreamEncoder {
  push(ev: StreamEvent): string[]
  /** Closes the stream properly (terminal events) if the IR stream ended without `finish`. Idempotent. */
  end(): string[]
}

export interface StreamEncoderOptions {
  /** The client's decoded request: model name to echo, include-usage flag, tool/format settings. */
  request?: IrRequest
  /** Overrides the model name echoed to the client. */
  model?: string
  /** Id generator for ids the encoder invents (item ids, fallback message ids); deterministic in tests. */
  newId?: (prefix: string) => string
  /** Unix seconds for `created` fields when the upstream gave none; deterministic in tests. */
  now?: () => number
}

/** Extracts usage from a protocol's own stream or body without re-encoding (passthrough). */
export interface UsageTap {
  /** false when the event was parsed (it may carry usage) and is not JSON: not this protocol's stream */
  push(ev: SseEvent): boolean
  /** Usage seen so far (cumulative), or undefined when the stream carried none. */
  usage(): Usage | undefined
}

export interface DecodeOptions {
  /** the body has already passed `requestSchema` (the relay routes check it first): not checked again */
  checked?: boolean
}

/**
 * The half of a protocol the gateway uses to talk to an upstream: encode requests, decode answers, streams,
 * errors and usage. Bedrock's and Vertex's protocols have only this half.
 */
export interface UpstreamProtocol {
  id: UpstreamProtocolId
  /** IR → wire request body for an upstream of this protocol. Throws `UnsupportedFeatureError` naming the field. */
  encodeRequest(req: IrRequest): Converted<Record<string, unknown>>
  /** Upstream non-stream body → IR. */
  decodeResponse(body: unknown): Converted<IrResponse>
  createStreamDecoder(): StreamDecoder
  /** Upstream error body (JSON or text) of this protocol → status and message. */
  parseError(status: number, body: unknown): WireError
  createUsageTap(): UsageTap
  /** Usage of a non-stream body of this protocol. */
  usageFromBody(body: unknown): Usage | undefined
  /** An error a 2xx body carries (Tencent Cloud answers failures with 200 and `Response.Error`). */
  bodyError?(body: unknown): WireError | undefined
  /** Answers only as a stream (Coze): a non-stream client's answer is the stream decoded and collected. */
  streamsOnly?: boolean
  /** How streams are framed on the wire; SSE when absent. */
  createFrameParser?(): FrameParser
  /** The smallest real request (one short user message, a few output tokens): the channel test and the health probe. */
  probeBody(model: string, quirks: UpstreamQuirks): Record<string, unknown>
  /** A vendor's differences applied to a body this protocol encoded (the output-cap field name, refused options). */
  applyQuirks?(body: Record<string, unknown>, quirks: UpstreamQuirks): void
  /**
   * A client protocol whose bodies and answers travel inside this one (Anthropic Messages inside Bedrock's invoke
   * and Vertex's rawPredict): its clients pass through, their body reshaped by `wrapBody`.
   */
  carries?: ProtocolId
  /** The body this upstream accepts for a `carries` body (Bedrock and Vertex: no model, their own version field). */
  wrapBody?(body: Record<string, unknown>, clientHeaders: Headers | undefined, warnings: string[]): { text: string; headers: Record<string, string> }
}

export interface SplicePaths {
  text?: readonly string[]
  dataUrl?: readonly string[]
}

/**
 * What a client asked for that multiplies or adds to a request's price beyond its tokens (metering/price-terms.ts
 * prices, caps or refuses each): several outputs, a service tier, hosted tools billed per call, price-changing betas.
 */
export interface PriceChoices {
  /** outputs generated for one prompt (`n`, `best_of`, `candidateCount`) and the field that asked for them */
  choices?: { count: number; field: string }
  /** OpenAI's `service_tier` as sent */
  serviceTier?: string
  /** hosted tools the request offers, by their kind (`web_search`, `file_search` …, else their wire type), with the field */
  hostedTools?: { kind: string; field: string }[]
  /** `anthropic-beta` flags */
  betas?: string[]
  /** input the body names but does not hold (`previous_response_id`, `cachedContent` …): its tokens may fill the context window */
  byReference?: string[]
  /** an output cap in a spelling the decoder does not read (Gemini's snake_case `generation_config.max_output_tokens`) */
  maxOutput?: number
}

/** A protocol clients speak to the gateway: the server half (decode requests, encode answers and errors) and the upstream half. */
export interface Protocol extends UpstreamProtocol {
  id: ProtocolId
  /** TypeBox schema of the request body the server side accepts. */
  requestSchema: TSchema
  /** A stream answer (SSE from the relay) in the framing this protocol's client asked for, when it may be other than SSE (Gemini's JSON array). */
  streamFraming?(sse: Response, request: Request): Response
  /** The relay paths whose errors this protocol renders (a more specific protocol is asked first: see `ERROR_ORDER`). */
  errorsOn?(path: string, request: Request): boolean
  /** What a client body needs on its way to an upstream of this same protocol (passthrough); nothing when absent. */
  passthroughPatch?(ctx: PassthroughContext): PassthroughPatch
  /**
   * What the scan of a large body (relay/body/json-scan.ts) notes without parsing it: `media`, the wire words (type
   * values or keys) of the parts the IR counts as images or files, each adding an image's tokens to the
   * reservation's bound; `patchTypes`, the `type`s of the objects `passthroughPatch` reads with `objectsOfType`.
   */
  scanWords?: { media: readonly string[]; patchTypes?: readonly string[] }
  /**
   * Where a large request's long strings may stay in the client's bytes when it is converted (relay/body/spliced-body.ts):
   * paths of string values (`messages.*.content.*.text`, `*` any array element) that `decodeRequest` passes on as a
   * text or media data without reading past its start; `dataUrl` paths only for strings starting with `data:`.
   */
  splicePaths?: SplicePaths
  /**
   * The price choices of a client body (see PriceChoices), read from its top-level values (`member` parses one;
   * a large body's other values stay unparsed) and headers. Throws `InvalidWireError` for a value of the wrong type.
   */
  priceChoices?(member: (key: string) => unknown, headers: Headers): PriceChoices
  /** Client wire request → IR. Throws `InvalidWireError` for bodies the spec forbids. */
  decodeRequest(body: unknown, options?: DecodeOptions): Converted<IrRequest>
  /** IR → non-stream body for a client. `request` is the client's decoded request (for echoing settings). */
  encodeResponse(res: IrResponse, request?: IrRequest): Converted<Record<string, unknown>>
  createStreamEncoder(opts?: StreamEncoderOptions): StreamEncoder
  /** Wire error body for a non-stream error response (send with `err.status`). */
  renderError(err: WireError): Record<string, unknown>
  /** The protocol's in-stream error frame(s) (after the first byte was sent). */
  renderStreamError(err: WireError): string
}
