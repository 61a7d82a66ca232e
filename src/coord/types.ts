import type { AffinityCache } from './affinity-types'
import type { ResponseHomes } from './response-home-types'

/**
 * The coordination seam: what the relay, metering and routing share between gateway nodes. `local.ts` keeps it
 * in this process (one node, as the gateway has always run); `redis.ts` keeps it in Redis so N nodes behind a
 * load balancer behave as one. Every method answers even when Redis is away: the Redis implementation then
 * falls back to this node's own state and `health()` says so.
 */

/** Limits of one scope (an API key, a user); 0 = no limit. */
export interface ScopeLimits {
  rpm: number
  tpm: number
  concurrency: number
}

export interface ScopeRequest {
  /** e.g. `t:12` or `u:3` */
  key: string
  /** `API key` or `user`, for the message */
  label: string
  limits: ScopeLimits
}

export type LimitKind = 'rpm' | 'tpm' | 'concurrency'

/** Why a request was refused: the first scope, in request order, that had no room. Nothing was taken. */
export interface LimitDenial {
  ok: false
  key: string
  label: string
  kind: LimitKind
  /** the limit that refused (requests or tokens per minute, or requests in flight) */
  limit: number
  /** requests in flight when `kind` is `concurrency` */
  inFlight: number
  /** seconds until the request would fit (exact for RPM and TPM; 1 for concurrency) */
  retryAfter: number
}

/** What an admitted request holds: a concurrency lease in every limited scope and the TPM estimate taken. */
export interface Permit {
  /**
   * Give the slot back and return the TPM estimate minus the tokens really used. Idempotent; never rejects
   * (a release that cannot reach Redis is left to the lease's TTL).
   */
  release(usedTokens: number): Promise<void>
}

export type AcquireResult = { ok: true; permit: Permit } | LimitDenial

/** One failed-login counter: an account from one address, or one address across accounts. */
export interface LoginKey {
  key: string
  /** attempts admitted at once before the waits start; each one after waits twice as long as the one before */
  free: number
}

export interface LoginBackoff {
  /** the longest wait between attempts, in seconds */
  maxSeconds: number
  /** a counter is forgotten this long after its wait ends without another attempt */
  forgetSeconds: number
}

/** What `loginSucceeded` needs to take an admitted attempt back: opaque to the caller. */
export interface LoginTicket {
  keys: string[]
  /** when the attempt was counted (ms, the backend's clock) */
  at: number
  /** each key's previous last-attempt time (ms; 0: none) */
  previous: number[]
}

export type LoginResult = { ok: true; ticket: LoginTicket } | { ok: false; /** seconds until an attempt is admitted again */ retryAfter: number }

export type WindowResult = { ok: true } | { ok: false; /** seconds until the window ends */ retryAfter: number }

/** A cache invalidation. `payload` null: messages may have been missed, or the writer named nothing: reload it all. */
export interface TopicEvent {
  topic: string
  payload: string | null
  /** published by this same Coordination instance */
  fromSelf: boolean
}

export type TopicHandler = (event: TopicEvent) => void

/** A job lease: renewed every third of its TTL until released; another holder may take it once it lapses. */
export interface Lease {
  readonly name: string
  /** false once released, or once a renewal found another holder */
  readonly held: boolean
  /** aborts when the lease is lost to another holder (not on release) */
  readonly lost: AbortSignal
  release(): Promise<void>
}

export type Exclusive<T> = { ran: true; value: T } | { ran: false }

interface CoordHealth {
  backend: 'local' | 'redis'
  /** state is shared with the other nodes right now */
  shared: boolean
  /** a shared backend is configured but unreachable: this node runs on its own limits and state */
  degraded: boolean
  /** Date.now() of the last change between shared and degraded */
  since: number
  /** the error that made it degraded (no credentials: a Redis URL is never included) */
  error?: string
}

export interface Coordination {
  /** Random per instance: owns leases and permits, tells `fromSelf` events apart. */
  readonly instanceId: string

  // (a) rate limits
  /**
   * Check every scope that has a limit, then take from all of them (a request, the TPM estimate, a concurrency
   * lease), or take nothing and name the first scope without room. Scopes without limits cost nothing.
   */
  acquire(requests: ScopeRequest[], estimateTokens: number): Promise<AcquireResult>

  // (b) the login limiter: counters of attempts with exponential backoff (coord/login-backoff.ts)
  /** Count one attempt on every key, or refuse (counting nothing) while any key is in its wait. */
  loginAttempt(keys: LoginKey[], backoff: LoginBackoff): Promise<LoginResult>
  /** The login was right: the first key (the account from this address) starts over, the others get the attempt back. */
  loginSucceeded(ticket: LoginTicket): Promise<void>

  /** Count one event for every key in its fixed window, or refuse (counting nothing) when any key has `limit` in it. */
  windowHit(keys: string[], limit: number, windowSeconds: number): Promise<WindowResult>

  // (c) cache invalidation
  /** Tell every node's subscribers of `topic` (this one's included) that it changed. */
  publish(topic: string, payload?: string): Promise<void>
  /**
   * Receive `topic`'s events; resolves once subscribed. A version counter per topic is compared every
   * `versionCheckMs`, so a missed message still arrives (as payload null) within about that time.
   */
  subscribe(topic: string, handler: TopicHandler): Promise<() => void>

  // (d) job leases
  /** Take the lease if nobody holds it (this instance's own holding included), else null. */
  tryAcquireLease(name: string, ttlMs: number): Promise<Lease | null>
  /** Run `fn` under the lease, or not at all when another holds it; `signal` aborts if the lease is lost. */
  runExclusive<T>(name: string, ttlMs: number, fn: (signal: AbortSignal) => Promise<T>): Promise<Exclusive<T>>

  // (e) node registry
  /** Register `nodeId` and keep it alive with a heartbeat every third of `ttlMs` (replaces a stale entry). */
  register(nodeId: string, ttlMs?: number): Promise<void>
  /** Node ids whose heartbeat is within its TTL, sorted. */
  liveNodes(): Promise<string[]>

  // (f) channel health: consecutive failures per channel, across nodes
  /** One more consecutive failure; resolves to the count across all nodes. */
  channelFailure(channelId: number): Promise<number>
  /** A success: the count goes back to 0 everywhere. Synchronous and free when no failure is known. */
  channelSuccess(channelId: number): void
  channelFailures(channelId: number): Promise<number>
  /** Every channel with a count above 0 (for /metrics: one round trip, not one per channel). */
  allChannelFailures(): Promise<Map<number, number>>

  // (g)
  health(): CoordHealth

  // (h) session affinity: which channel and key served a session last (relay/routing/affinity)
  readonly affinity: AffinityCache

  // (i) stored OpenAI responses: which channel and key created each (relay/responses)
  readonly responses: ResponseHomes

  /**
   * `graceful` (default): stop timers, release job leases, deregister. `abandon`: stop timers and connections
   * and release nothing, as a crashed node would (its leases and registration lapse with their TTL).
   */
  close(mode?: 'graceful' | 'abandon'): Promise<void>
}

export interface CoordOptions {
  /** TTL of a request's concurrency lease, renewed every third of it while held (default 60 s) */
  permitTtlMs?: number
  /** how often subscribers compare topic versions, and a degraded node retries Redis (default 500 ms) */
  versionCheckMs?: number
  /** default TTL of a node registration (default 15 s) */
  nodeTtlMs?: number
}

export const DEFAULTS = { permitTtlMs: 60_000, versionCheckMs: 500, nodeTtlMs: 15_000 } as const
