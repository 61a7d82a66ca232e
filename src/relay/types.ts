import type { TokenRow, UserRow } from '../db/repos'
import type { IrRequest, Usage } from '../ir'
import type { OpenStreams } from '../telemetry/open-streams'
import type { OptionStore } from '../options/store'
import type { OutboundFetch } from '../outbound/fetch'
import type { OutboundWebSocket } from '../outbound/websocket'
import type { ProtocolId } from '../protocols/types'
import type { Meter } from './meter/meter'
import type { RequestBody } from './body/request-body'
import type { Routing } from './routing'
import type { SessionAffinity } from './routing/affinity/session-affinity'
import type { ResponseRegistry } from './responses/response-registry'

/**
 * The relay's contracts: what a route hands the engine, what the engine hands metering and the operations log when a
 * request is over, and the hooks metering hangs on it. They sit at the bottom: metering/, ops/, plugins/ and the jobs
 * import them from here, never from the engine, so no import goes round in a circle.
 */

/** The API key a relay request was verified with, and its owner. */
export interface VerifiedToken {
  token: TokenRow
  user: UserRow
}

/** Who asks and how to reach them: what every relay operation (chat or not) hands the engine and metering. */
export interface RelayCall extends VerifiedToken {
  /** the chat protocol, or for other operations the route label (`/v1/embeddings`) */
  protocol: string
  headers: Headers
  requestId: string
  clientIp: string
  /** aborted when the client goes away */
  signal: AbortSignal
  /** performance.now() when the request arrived (before routing, auth and body parsing), for x-tollgate-overhead-ms */
  receivedAt?: number
}

/** A chat request: the call and the client's body. */
export interface RelayInput extends RelayCall {
  protocol: ProtocolId
  /** the client's body: its bytes, and its top-level fields (all of it when small; see request-body.ts) */
  body: RequestBody
  /** `body.view` has passed the client protocol's request schema (the route's wire check): the decoder skips it */
  bodyChecked?: boolean
  /** Gemini carries model and stream in the URL */
  pathModel?: string
  pathStream?: boolean
}

/** What happened, for settlement (quota, logs, channel health). */
export interface RelayOutcome {
  input: RelayCall
  /** the model served (billed and logged): the one the client asked for, or its fallback; and whether it asked for a stream */
  model: string
  /** set when a fallback served: the model the client asked for */
  requestedModel?: string
  stream: boolean
  /** the chat request, decoded (chat protocols only) */
  ir?: IrRequest
  channelId: number
  upstreamModel: string
  usage: Usage | undefined
  ok: boolean
  status: number
  error?: string
  aborted: boolean
  startedAt: number
  firstByteAt: number | undefined
  endedAt: number
  /** performance.now() when the winning (or last) attempt was sent upstream: `firstByteAt` minus it is the upstream's own wait */
  upstreamSentAt?: number
  attempts: { channelId: number; status: number; error?: string }[]
  warnings: string[]
  /** what the `reserve` hook returned for this request */
  reservation?: unknown
  /** text the client received (text, reasoning, tool arguments): the usage estimate when the upstream reported none */
  output?: string
}

/** Sees every request the engine settled, once it is over (the app's observer: tests collect outcomes). */
export type RelayObserver = (outcome: RelayOutcome) => void

/** What the engine calls around a request: metering's, in the app (metering/hooks.ts). */
export interface RelayHooks {
  /**
   * Runs once per request after the model is authorized and routable, before the first upstream attempt; throws
   * (or rejects) to refuse the request (metering: price, rate limits, quota). Awaited: the quota decision may be
   * the database's. Its result reaches settle as `outcome.reservation`.
   */
  reserve?(meter: Meter, call: RelayCall, group: string): unknown
  /**
   * A long-running request's usage so far (a realtime session, after each response): metering tops its reservation
   * up to cover it and one more stretch; resolves false when the balances cannot, and the request must end.
   */
  topUp?(reservation: unknown, call: RelayCall, usage: Usage): Promise<boolean>
  /** Called once per request that passed `reserve`, when it is over (failures too). */
  settle(outcome: RelayOutcome): void
}

/** The narrow pieces of the app the engine and its jobs use. */
export interface RelayPorts {
  routing: Pick<Routing, 'planRoute' | 'recordResult'>
  /** session affinity (absent in tests that build none: every request routes by weight) */
  affinity?: SessionAffinity
  /** where stored OpenAI responses live (absent in tests that build none: nothing is remembered) */
  responses?: ResponseRegistry
  options: Pick<OptionStore, 'get'>
  outbound: { fetch: OutboundFetch; webSocket?: OutboundWebSocket }
  /** open attempts and streams, for the shutdown drain (absent in tests that build no ops) */
  ops?: { streams: OpenStreams }
}
