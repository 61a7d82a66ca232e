import type { Usage } from '../ir'
import type { OperationId } from '../providers/types'
import type { Meter } from '../relay/meter/meter'

/** A client's request to an operation, decoded: what routing and metering need, plus the operation's own fields. */
export interface OperationRequest {
  model: string
  stream: boolean
  meter: Meter
}

/** What one attempt sends upstream (the pipeline adds the URL, the auth and the signing). */
interface UpstreamCall {
  body: string | FormData
  /** for a string body; FormData brings its own multipart boundary */
  contentType?: string
  /** replaces the endpoint's path template for this call (Gemini's `:embedContent` vs `:batchEmbedContents`) */
  path?: string
  /** headers of this call besides the channel's (DashScope's `X-DashScope-Async`) */
  headers?: Record<string, string>
}

/**
 * More calls within the same attempt, for an upstream that answers a submission with a task to poll (DashScope's
 * image synthesis): GETs to a path on the channel's host with the channel's auth, through the outbound guard, and
 * waits, all ended by the attempt's deadline or the client going away.
 */
export interface FollowUp {
  get(path: string): Promise<Response>
  wait(ms: number): Promise<void>
}

/** The upstream's answer as the client gets it, and what metering bills. */
export interface OperationAnswer {
  body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>
  contentType: string
  /** in the meter's unit as input (tokens, characters, seconds, images) plus output tokens; undefined: the reservation's estimate */
  usage?: Usage
  /** headers to pass on (e.g. a transcription's content type, a speech stream's) */
  headers?: Record<string, string>
  /** set when a stream ended with an error event after its first content: why, for the log and the channel's health */
  error?: string
}

/** One upstream wire dialect of an operation (`openai`, `gemini`, `cohere` …): the provider data names it. */
export interface OperationDialect<R extends OperationRequest> {
  /** false: it cannot answer a `stream: true` request (Imagen, DashScope), which then goes only to channels whose dialect can */
  streams?: false
  encode(request: R, upstreamModel: string): UpstreamCall
  /** Reads a 2xx answer; throws UpstreamFailure when it is not what the dialect sends. */
  decode(response: Response, request: R, follow: FollowUp): Promise<OperationAnswer>
  /** The message inside an error body of this dialect (default: OpenAI's `error.message`, `message`, `detail`). */
  errorMessage?(status: number, body: unknown): string | undefined
}

/** A model API besides chat: its route, how its body is read, and its upstream dialects. */
export interface Operation<R extends OperationRequest = OperationRequest> {
  id: OperationId
  /** the OpenAI-style route clients call */
  path: string
  /** other routes that answer the same (a vendor's own path some clients call, e.g. `/v1/beta/completions`) */
  aliases?: readonly string[]
  body: 'json' | 'multipart'
  /** Checks and decodes the client's body (a JSON object, or FormData); throws a 400 naming the field. */
  decode(body: unknown, raw: { bytes: number }): R
  dialects: Partial<Record<string, OperationDialect<R>>>
  /** The smallest real client body for `model` (a JSON object): the channel test sends it through the channel's dialect. */
  probe?(model: string): Record<string, unknown>
}
