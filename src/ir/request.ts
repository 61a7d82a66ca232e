/**
 * The neutral request. No protocol knows about another; each decodes its wire body into this shape and
 * encodes this shape into its wire body. What only one protocol understands travels in `providerOptions`,
 * keyed by protocol id, so that encoding back into the same protocol loses nothing.
 */

/** Options that only one protocol understands, keyed by protocol id (e.g. `anthropic`, `openai-responses`). */
export type ProviderOptions = { [protocol: string]: Record<string, unknown> | undefined }

interface PartBase {
  /** Per-part extras for one protocol, e.g. `{ anthropic: { cache_control } }`, `{ gemini: { thoughtSignature } }`. */
  providerOptions?: ProviderOptions
}

export interface TextPart extends PartBase {
  type: 'text'
  text: string
}

/** Media by URL (http(s) or a provider file URI) or inline base64 data. */
type MediaSource = { kind: 'url'; url: string } | { kind: 'base64'; data: string }

export interface ImagePart extends PartBase {
  type: 'image'
  source: MediaSource
  /** e.g. `image/png`; required for base64, optional for URLs. */
  mediaType?: string
  /** OpenAI `detail` (auto/low/high). */
  detail?: string
}

export interface FilePart extends PartBase {
  type: 'file'
  source: MediaSource
  mediaType?: string
  filename?: string
}

/**
 * Model reasoning. `signature` (Anthropic, Gemini thoughtSignature) and `encrypted` (OpenAI Responses
 * `encrypted_content`, Anthropic `redacted_thinking.data`) are opaque and valid only for the protocol named in
 * `origin`; encoders for other protocols must drop them (with a warning), never send them empty.
 */
export interface ReasoningPart extends PartBase {
  type: 'reasoning'
  text: string
  signature?: string
  encrypted?: string
  /** Anthropic `redacted_thinking`: no readable text, only `encrypted`. */
  redacted?: boolean
  /** Protocol id that produced the signature / encrypted content. */
  origin?: string
  /** Item id (Responses `rs_…`). */
  id?: string
}

export interface ToolCallPart extends PartBase {
  type: 'tool-call'
  id: string
  name: string
  /** JSON text of the arguments (an object), exactly as produced. */
  arguments: string
  /** Responses: the namespace tool `name` belongs to. Protocols without namespaces use `toolNames()` wire names. */
  namespace?: string
}

export interface ToolResultPart extends PartBase {
  type: 'tool-result'
  callId: string
  /** Tool name when known (Gemini functionResponse needs it; resolve with `toolNameFor`). */
  name?: string
  content: Array<TextPart | ImagePart | FilePart>
  isError?: boolean
}

export type UserPart = TextPart | ImagePart | FilePart
export type AssistantPart = TextPart | ReasoningPart | ToolCallPart | ImagePart
export type Part = TextPart | ImagePart | FilePart | ReasoningPart | ToolCallPart | ToolResultPart

interface SystemMessage {
  role: 'system'
  content: TextPart[]
  providerOptions?: ProviderOptions
}
interface UserMessage {
  role: 'user'
  content: UserPart[]
  providerOptions?: ProviderOptions
}
export interface AssistantMessage {
  role: 'assistant'
  content: AssistantPart[]
  providerOptions?: ProviderOptions
}
interface ToolMessage {
  role: 'tool'
  content: ToolResultPart[]
  providerOptions?: ProviderOptions
}
/**
 * An input item only one protocol understands (Responses `additional_tools`, `configuration_update`,
 * `web_search_call` …), kept verbatim at its position. The same protocol sends it on; other encoders refuse
 * it (throw `UnsupportedFeatureError`) or drop it with a warning when that is harmless.
 */
interface OpaqueMessage {
  role: 'opaque'
  /** Protocol id whose wire format `raw` is in. */
  protocol: string
  /** The wire item `type`. */
  type: string
  raw: Record<string, unknown>
  /** Where the client sent it (e.g. `input[0]`), so a refusal names the client's own field. */
  path?: string
  providerOptions?: ProviderOptions
}
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage | OpaqueMessage

type JsonSchema = Record<string, unknown>

export interface FunctionTool {
  kind: 'function'
  name: string
  description?: string
  parameters: JsonSchema
  strict?: boolean
  /**
   * Responses `namespace` tools are decoded into one function tool per member, each naming its namespace;
   * protocols without namespaces send them under a flat name (`toolNames()` in tool-names.ts).
   */
  namespace?: string
  providerOptions?: ProviderOptions
}

/**
 * A tool only one protocol understands (Responses `web_search`, `namespace`, `custom`; Anthropic server tools
 * such as `web_search_20250305`; Gemini `googleSearch` …). Kept verbatim so the same protocol can send it on;
 * other encoders drop it (when harmless, e.g. hosted search) or refuse it.
 */
interface ProviderTool {
  kind: 'provider'
  /** Protocol id whose wire format `raw` is in. */
  protocol: string
  /** The wire `type` (e.g. `web_search`, `namespace`, `custom`, `web_search_20250305`). */
  type: string
  name?: string
  raw: Record<string, unknown>
}

export type Tool = FunctionTool | ProviderTool

export type ToolChoice = { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; name: string }

export interface Sampling {
  temperature?: number
  topP?: number
  topK?: number
  stop?: string[]
  seed?: number
  frequencyPenalty?: number
  presencePenalty?: number
}

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max'

interface ReasoningSettings {
  /** false = explicitly disabled; undefined = provider default. */
  enabled?: boolean
  effort?: ReasoningEffort
  budgetTokens?: number
  /** Anthropic `thinking: {type: adaptive}`: the model decides. */
  adaptive?: boolean
  /** Whether the reasoning text/summary should be returned (Responses `summary`, Gemini `includeThoughts`). */
  summary?: string
}

type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: JsonSchema; strict?: boolean; description?: string }

export interface IrRequest {
  model: string
  system: TextPart[]
  messages: Message[]
  tools: Tool[]
  toolChoice?: ToolChoice
  parallelToolCalls?: boolean
  sampling: Sampling
  maxOutputTokens?: number
  reasoning?: ReasoningSettings
  responseFormat?: ResponseFormat
  stream: boolean
  /** Client asked for usage in the stream (chat `stream_options.include_usage`); other protocols always send it. */
  includeUsage?: boolean
  /** End-user identifier for abuse tracking (chat/responses `user`, anthropic metadata.user_id). */
  user?: string
  providerOptions: ProviderOptions
}

export function textPart(text: string): TextPart {
  return { type: 'text', text }
}

export function emptyRequest(model: string): IrRequest {
  return { model, system: [], messages: [], tools: [], sampling: {}, stream: false, providerOptions: {} }
}
