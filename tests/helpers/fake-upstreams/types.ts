/** Shared types of the fake upstreams. See index.ts for the server. */

export type ProtocolName = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini'

/** One HTTP request as the fake received it. */
export interface RecordedRequest {
  method: string
  /** URL path, e.g. `/v1beta/models/gemini-2.5-flash:streamGenerateContent` */
  path: string
  /** query parameters (last value wins) */
  query: Record<string, string>
  /** header names lowercased */
  headers: Record<string, string>
  /** the address the connection came from (a proxy's egress address when a channel dials through one) */
  peer?: string
  /** raw body text, exactly as received */
  body: string
  /** parsed JSON body, or undefined when the body was empty or not JSON */
  json: any
  /** the protocol the path belongs to, undefined for unknown paths */
  protocol?: ProtocolName
  /** what the route does */
  kind?: 'generate' | 'count_tokens' | 'models' | 'compact' | 'resource'
  /** model named by the body, the Gemini path or the Azure deployment */
  model?: string
  /** true once the response was fully sent (or the error reply was returned) */
  completed: boolean
  /** streamed replies: the frames handed to the connection so far (lets a test compare its client's progress) */
  framesSent?: number
  /** true when the client went away before the response was complete */
  aborted: boolean
  /** Date.now() at arrival */
  at: number
}

/** Usage in neutral terms; each fake writes it in its vendor's own fields. */
export interface ScenarioUsage {
  /** prompt tokens that were neither read from nor written to a cache (default 10) */
  input?: number
  /** prompt tokens read from cache (anthropic cache_read_input_tokens, openai cached_tokens, gemini cachedContentTokenCount) */
  cacheRead?: number
  /** prompt tokens written to cache (anthropic cache_creation_input_tokens; others count them as plain input) */
  cacheWrite?: number
  /** the part of cacheWrite written for an hour (anthropic cache_creation.ephemeral_1h_input_tokens; default 0) */
  cacheWrite1h?: number
  /** all output tokens, reasoning included (default 20 + reasoning) */
  output?: number
  /** reasoning tokens, part of output (default 5 when the scenario has reasoning, else 0) */
  reasoning?: number
}

interface ScenarioToolCall {
  /** call id; default a vendor-shaped random id (toolu_…, call_…; Gemini has none) */
  id?: string
  name: string
  /** the JSON arguments: an object (stringified) or a raw JSON string */
  arguments?: unknown
  /** exact fragments to stream (their concatenation must be the arguments), or a count (default 3) */
  fragments?: string[] | number
}

/** Vendor-shaped HTTP error. */
interface ScenarioError {
  status: number
  /** vendor error type/code override (anthropic error.type, openai error.type, gemini error.status) */
  type?: string
  message?: string
  /** extra response headers, e.g. { 'retry-after': '1' } */
  headers?: Record<string, string>
}

/** What the fake answers to a generation request. Every field is optional. */
export interface Scenario {
  /** the answer text; a string is split into `textDeltas` pieces, an array is sent as exactly those deltas */
  text?: string | string[]
  /** number of deltas a string `text` is split into (default 3) */
  textDeltas?: number
  /** reasoning / thinking text (string split into `reasoningDeltas` pieces, or exact deltas) */
  reasoning?: string | string[]
  reasoningDeltas?: number
  /** anthropic thinking signature / responses encrypted_content / gemini thoughtSignature; '' = none sent */
  signature?: string
  /** tool calls, in order (parallel when several) */
  toolCalls?: ScenarioToolCall[]
  usage?: ScenarioUsage
  /** neutral finish, mapped per vendor; default tool_calls when there are tool calls, else stop */
  finish?: 'stop' | 'length' | 'tool_calls' | 'content_filter'
  /** vendor-native stop/finish reason, sent as is (overrides `finish`) */
  rawFinish?: string
  /** model to report; default the requested model */
  model?: string
  /** chat only: field carrying reasoning text (default reasoning_content, as DeepSeek/vLLM do) */
  chatReasoningField?: string
  /** extra response headers */
  headers?: Record<string, string>

  // ---- failure modes ----
  /** reply with this HTTP error (and the vendor's error body) */
  error?: ScenarioError
  /** with `error`: only the first N requests (since setBehavior) fail, later ones succeed */
  failFirst?: number
  /** a 200 stream whose first event is the vendor's in-stream error (non-stream: ignored) */
  streamError?: { type?: string; message?: string }
  /** ms to wait before the first byte (headers included) */
  firstByteDelayMs?: number
  /** ms to wait between stream frames */
  delayMs?: number
  /** 'headers': never answer; a number N: send headers and N stream frames (non-stream: half the body), then hang */
  stall?: 'headers' | number
  /** send headers and N stream frames (non-stream: half the body), then reset the connection */
  cutAfter?: number
  /**
   * with cutAfter: reset only once this settles (e.g. when the client has seen the content), not 30 ms after the
   * frames: a reset discards what the gateway has not read yet, and a loaded machine reads late
   */
  cutWhen?: Promise<unknown>
  /** stream only: raw `text` sent as is after the first `after` frames (a broken proxy, an HTML error page, a non-JSON
   *  `data:` line); the rest of the frames follow it */
  garbage?: { after: number; text: string }
  /** stream only: wait `ms` once (or until `until` settles), after the first `after` frames (an upstream that thinks mid-answer) */
  pauseAt?: { after: number; ms: number; until?: Promise<unknown> }
}

export type Behavior = Scenario | Scenario[] | ((req: RecordedRequest, index: number) => Scenario)

/** A normalized scenario, shared by the four encoders. */
export interface Plan {
  text: string[]
  reasoning: string[]
  signature: string
  tools: { id?: string; name: string; args: string; fragments: string[] }[]
  usage: Required<ScenarioUsage>
  finish: 'stop' | 'length' | 'tool_calls' | 'content_filter'
  rawFinish?: string
  model: string
  s: Scenario
}

/** What a protocol module gets to build one reply. */
export interface Ctx {
  rec: RecordedRequest
  body: any
  plan: Plan
  stream: boolean
}

export interface Protocol {
  /** vendor-shaped error reply for a status */
  error(status: number, type?: string, message?: string, headers?: Record<string, string>): Response
  /** 401/403 reply when the key is missing or wrong, undefined when accepted */
  auth(rec: RecordedRequest, keys: string[]): Response | undefined
  /** 400 reply for requests the vendor would refuse, undefined when valid */
  validate(rec: RecordedRequest): Response | undefined
  isStream(rec: RecordedRequest): boolean
  /** non-stream JSON body */
  body(ctx: Ctx): unknown
  /** the SSE frames of a stream, each a complete `event:`/`data:` block */
  frames(ctx: Ctx): string[]
  /** frames of a 200 stream that fails before any content */
  streamError(ctx: Ctx, type?: string, message?: string): string[]
  /** response headers for successful replies */
  headers(): Record<string, string>
}
