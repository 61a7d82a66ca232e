import type { ProtocolId, UpstreamProtocolId, UpstreamQuirks } from '../protocols/types'
import type { OutboundWebSocket } from '../outbound/websocket'

export type { ProtocolId, UpstreamProtocolId }

/** The video APIs Tollgate serves as tasks (src/tasks/video/vendors.ts). */
export type VideoVendorId = 'sora' | 'kling' | 'jimeng' | 'vidu' | 'doubao-video' | 'veo' | 'replicate'

/** How a key is sent. Every style sends nothing for an empty key (keyless local servers). */
export type AuthStyle = 'bearer' | 'x-api-key' | 'api-key' | 'x-goog-api-key'

/**
 * Where one protocol lives on a provider. Paths are relative to the provider root and may use
 * `{model}` (URL-encoded upstream model) and `{apiVersion}` (channel `other`, else the provider default).
 */
export interface EndpointSpec {
  path: string
  /** Path for `stream: true` when it differs (Gemini's `:streamGenerateContent?alt=sse`). */
  streamPath?: string
  /** Overrides the provider's auth style for this protocol. */
  auth?: AuthStyle
  /** Extra fixed headers for this protocol (e.g. `anthropic-version`). */
  headers?: Record<string, string>
}

/** One call as the connector sees it, its body final. */
interface ConnectorCall {
  protocol: UpstreamProtocolId
  /** the upstream model id */
  model: string
  /** the model the client asked for (Vertex's region map is keyed by it) */
  clientModel: string
  stream: boolean
  key: string
  /** the channel's base URL ('' = the provider's default) and `other` field */
  baseUrl: string
  other: string
  /** the channel's `setting` (AdvancedCustom's routes live there) and the client's protocol (what picks a route) */
  setting?: Record<string, unknown>
  client?: ProtocolId
  body: string
  /** headers the protocol adds (content type, betas) */
  headers: Record<string, string>
  /** how the connector dials anything of its own (a token endpoint): the outbound guard, the app's policy */
  fetch(url: string, init?: RequestInit): Promise<Response>
}

/** One chat call over a vendor's WebSocket (`Provider.socketCall`). */
export interface SocketCall {
  baseUrl: string
  model: string
  other: string
  key: string
  /** the body the upstream protocol encoded */
  body: string
  /** aborts the dial and closes the socket (client gone, stream idle, shutdown) */
  signal: AbortSignal
  /** the whole answer's time, from the dial */
  deadlineMs: number
  dial: OutboundWebSocket
}

/** One call of a non-chat operation as the connector sees it (Vertex's Imagen `:predict`). */
interface OperationConnectorCall extends Pick<ConnectorCall, 'model' | 'clientModel' | 'key' | 'baseUrl' | 'other' | 'fetch'> {
  operation: OperationId
}

/** For providers whose URL and credentials are made per call (signed requests, minted tokens). */
interface Connector {
  prepare(call: ConnectorCall): Promise<{ url: string; headers: Record<string, string> }>
  /** URL and credentials of one operation call (an operation of a connector provider needs it; its dialect makes the body) */
  prepareOperation?(call: OperationConnectorCall): Promise<{ url: string; headers: Record<string, string> }>
  /**
   * The upstream answered `status` (not 2xx) to a call `prepare` made. True when that dropped cached credentials the
   * next call makes anew (Vertex forgets a token it refused with 401 and mints one): the key itself is not dead.
   */
  rejected?(call: Pick<ConnectorCall, 'key'>, status: number): boolean
}

/** The model APIs besides chat, by the route clients call (OpenAI's shapes; src/operations/). */
export type OperationId =
  | 'embeddings'
  | 'rerank'
  | 'moderations'
  | 'completions'
  | 'image-generations'
  | 'image-edits'
  | 'image-variations'
  | 'speech'
  | 'transcriptions'
  | 'translations'
  /** the realtime WebSocket (src/realtime/): the path is dialled as ws(s) */
  | 'realtime'

/**
 * Where a provider serves one operation, and in which wire dialect (`openai` for the OpenAI shape most vendors
 * copy; `gemini`, `cohere` … where a vendor has its own). Paths are templated like endpoint paths.
 */
export interface OperationEndpoint {
  path: string
  dialect: string
  auth?: AuthStyle
  headers?: Record<string, string>
}

/** What a provider's own model listing gets: the channel's first key, base URL and `other`, and the fetch to use (the SSRF guard). */
export interface ModelListCall {
  key: string
  baseUrl: string
  other: string
  fetch(url: string, init?: RequestInit): Promise<Response>
}

export interface ModelListSpec {
  /** Path relative to the provider root (templated like endpoint paths). */
  path: string
  /** Whose auth headers the list call uses; defaults to the provider's preferred protocol. */
  protocol?: ProtocolId
  parse(body: unknown): string[]
  /**
   * For connector providers, whose list is signed or needs a minted token and may take several calls (Bedrock,
   * Vertex): the listing itself (`path` and `parse` are its first call). Throws `ModelListError` when refused.
   */
  list?(call: ModelListCall): Promise<string[]>
}

/** Small behaviours the protocol encoders/decoders may need to know about one vendor (defined with the protocols that read them). */
export type ProviderQuirks = UpstreamQuirks

/** An upstream vendor as data. Channel `type` numbers follow new-api. */
export interface Provider {
  type: number
  id: string
  name: string
  /** Protocols spoken, preferred first; each has an entry in `endpoints`. */
  protocols: readonly UpstreamProtocolId[]
  endpoints: Partial<Record<UpstreamProtocolId, EndpointSpec>>
  /** The protocol a channel's own configuration sends a client's requests with (AdvancedCustom's routes); undefined: the usual choice. */
  routedProtocol?(setting: Record<string, unknown>, client: ProtocolId, model: string): UpstreamProtocolId | undefined
  /** The protocols that serve one model, preferred first, when that depends on the model (Bedrock: Claude through invoke, others through Converse). */
  protocolsFor?(model: string): readonly UpstreamProtocolId[]
  /** URL and auth of one call when they depend on the key or a signature over the body (Bedrock's SigV4, Vertex's OAuth token). */
  connector?: Connector
  /**
   * A chat call over the vendor's WebSocket instead of an HTTP request (Spark): dials through `dial` (the outbound
   * guard), sends the encoded body, and answers as `fetch` would: a failed status with the error as its body, or a
   * 200 whose body is the answer as SSE events.
   */
  socketCall?(call: SocketCall): Promise<Response>
  /** The other model APIs the provider serves (embeddings, rerank, images, audio …). */
  operations?: Partial<Record<OperationId, OperationEndpoint>>
  /** Provider root as in new-api (`https://api.openai.com`); '' means the channel must set one. */
  defaultBaseUrl: string
  auth: AuthStyle
  /** false for local servers (Ollama) that work without a key. */
  keyRequired: boolean
  /** Default for `{apiVersion}` when the channel's `other` gives none. */
  defaultApiVersion?: string
  /** Fixed headers sent on every call (attribution and the like). */
  headers?: Record<string, string>
  modelList?: ModelListSpec
  /** Model used by the channel test when neither the request nor the channel names one. */
  testModel: string
  /** Well-known models offered in the back office. */
  models: readonly string[]
  quirks: ProviderQuirks
  /** What a channel of this type cannot do yet, or must know (shown by the channel test and in the docs). */
  note?: string
  /** What the channel's `other` field holds for this type (Azure: the api-version; Cloudflare: the account id). */
  otherField?: {
    meaning: string
    required: boolean
    /** `other` is part of where the key is sent (Vertex's region picks the host, Cloudflare's account the path) */
    addressed?: boolean
  }
  /** The top-level body field the channel's `other` fills on every chat call (Coze's `bot_id`). */
  otherInBody?: string
  /** Refuses a key this type cannot use (a 400 naming `key`, never quoting it): Bedrock's key format, Vertex's service account. */
  checkKey?(key: string): void | Promise<void>
  /** The URLs a key makes the server dial besides the channel's own (a service account's token_uri), checked on save. */
  keyTargets?(key: string): string[]
  /** Refuses a `setting` this type cannot work with (a 400 naming `setting`): AdvancedCustom's routes. */
  checkSetting?(setting: Record<string, unknown>): void
  /** Refuses an `other` this type cannot read (a 400 naming `other`): Vertex's region. */
  checkOther?(other: string): void
  /**
   * A base URL that carries what `other` should hold (Cloudflare's `…/client/v4/accounts/<id>/ai/v1`): split into
   * the provider root and `other` when a channel is written, so the endpoint templates see `{apiVersion}` filled.
   */
  foldBaseUrl?(baseUrl: string): { baseUrl: string; other: string } | undefined
  /** The asynchronous task API the provider serves (src/tasks/): Midjourney through a midjourney-proxy, Suno. */
  tasks?: 'midjourney' | 'suno'
  /** The video API the provider serves as tasks (src/tasks/video/): Sora on OpenAI, Kling, Jimeng, Vidu … */
  videos?: VideoVendorId
  /** The vendor's Coding Plans: a base URL whose keys work only at the plan's own paths (coding-plans.ts). */
  plans?: readonly CodingPlan[]
}

/**
 * A vendor's Coding Plan (new-api's ChannelSpecialBases): its keys are good only at the plan's endpoints. A channel
 * of the vendor's type whose base URL is `baseUrl` (or new-api's word for it, folded to it on save and on import)
 * reaches each protocol at the plan's path instead of the pay-as-you-go one.
 */
export interface CodingPlan {
  /** new-api's word in `base_url` (`kimi-coding-plan`) */
  word: string
  name: string
  baseUrl: string
  /** where each protocol lives under `baseUrl`; a protocol left out is not served by the plan */
  paths: Partial<Record<UpstreamProtocolId, string>>
  /** the plan's model list under `baseUrl`, when it has one */
  modelListPath?: string
  /** the models the plan serves, offered when it has no list */
  models: readonly string[]
}
