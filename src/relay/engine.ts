import { GatewayError, NotFoundError } from '../errors'
import type { IrRequest, Usage } from '../ir'
import { tokenAllowsModel } from './auth/model-allowed'
import { planServing } from './fallback-plan'
import { UpstreamFailure } from './failure'
import type { Meter } from './meter/meter'
import type { RouteCandidate } from './routing'
import type { SessionIdentity } from './routing/affinity/session-identity'
import type { AffinityEntry } from '../coord/affinity-types'
import type { RelayCall, RelayHooks, RelayOutcome, RelayPorts } from './types'

/**
 * One kind of request the engine runs: chat (chat-job.ts) or a model API besides chat (operation-job.ts). The
 * engine owns the steps every kind shares (authorize, plan, reserve, fail over, settle once); a job says what is
 * its own: which channels serve it, what it costs, and how one attempt calls a channel and reads the answer.
 */
export interface RelayJob {
  /** the model the client asked for, and whether it asked for a stream (read when the request settles) */
  readonly model: string
  readonly stream: boolean
  /** the chat request, decoded (chat only) */
  readonly ir?: IrRequest
  /** what decoding and rewriting the request noted, for the log */
  readonly warnings: string[]
  /** the coding agent's session the request belongs to (routing/affinity): its turns keep one channel and key */
  session?(): SessionIdentity | undefined
  /** the channel and key that must come first (the home of the stored response a Responses turn continues); a throw refuses the request */
  home?(): Promise<AffinityEntry | undefined> | undefined
  /** the planned channels that can run this job, in order */
  serving(planned: RouteCandidate[]): RouteCandidate[]
  /** why none of the planned channels can (default: the model is not found in the group) */
  noneServes?(): GatewayError
  /** what metering reserves on */
  meter(): Meter
  /** after the reservation, before the first attempt (chat takes out what metering declined); a throw abandons the request */
  reserved?(meter: Meter): void
  /** before each attempt: the body back in memory if an earlier attempt let go of it */
  restore?(): Promise<void> | undefined
  /**
   * One upstream call. Throws UpstreamFailure for anything that goes wrong before the client's first byte (the
   * engine tries the next channel); calls `attempt.end` once when the answer is over (at once for a body, at the
   * end of a stream).
   */
  attempt(candidate: RouteCandidate, attempt: AttemptHooks): Promise<JobAnswer>
}

interface AttemptHooks {
  /** the job made its body and sends it now: the upstream's own wait is counted from here */
  sending(): void
  end(end: AnswerEnd): void
  /** a long-running answer's usage so far (a realtime session): resolves false when its reservation can no longer be topped up to cover it */
  topUp(usage: Usage): Promise<boolean>
}

/** How an answer ended, for settlement and channel health. */
interface AnswerEnd {
  usage: Usage | undefined
  /** the answer broke off (the client got the protocol's error event) */
  error?: string
  /** the gateway ended it, not the channel (a realtime session out of quota, or shut down): its error is not the channel's failure */
  endedByGateway?: boolean
  aborted: boolean
  firstByteAt: number | undefined
  /** the text the client got, when usage needs an estimate */
  output?: string
  /** this attempt's own warnings (its body's) */
  warnings?: string[]
}

/** What the client gets with status 200 (the engine adds the overhead header). */
interface JobAnswer {
  body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>
  headers: Record<string, string>
  /** when the upstream's answer (a body) or first content (a stream) had arrived */
  upstreamDoneAt: number
}

const settledErrors = new WeakSet<object>()
/** Whether `error` was thrown by a request that settle already saw (and logged): refusals before it were not. */
export function wasSettled(error: unknown): boolean {
  return typeof error === 'object' && error !== null && settledErrors.has(error)
}
function markSettled<T>(error: T): T {
  if (typeof error === 'object' && error !== null) settledErrors.add(error)
  return error
}

type Ended = Pick<RelayOutcome, 'ok' | 'status'> & Partial<Pick<RelayOutcome, 'usage' | 'error' | 'aborted' | 'firstByteAt' | 'upstreamSentAt' | 'output' | 'warnings'>>

/**
 * The one failover loop: authorize the model → plan channels → reserve → for each candidate (up to
 * RelayMaxAttempts): restore the body, attempt, record the channel's health; on a failure before the first byte
 * try the next → settle once → the answer, or the final error.
 */
export async function runRelay(ports: Pick<RelayPorts, 'routing' | 'options' | 'affinity'>, call: RelayCall, job: RelayJob, hooks: RelayHooks): Promise<Response> {
  const startedAt = performance.now()
  const model = job.model
  if (!tokenAllowsModel(call.token, model)) throw modelNotFound(model, 'this token may not use it')
  const group = call.token.group || call.user.group
  // a model with no channel left is served by its first fallback that has one (ModelFallbacks), billed and logged as it
  const { served, planned, serving } = await planServing(ports, call.token, group, model, (list) => job.serving(list))
  // affinity off (the default) for this group and model: the session is not read and nothing is awaited
  const affinity = serving.length > 0 && ports.affinity?.applies(group, served) ? ports.affinity : undefined
  const session = affinity ? await affinity.open(call.token.id, group, served, job.session?.()) : undefined
  const homing = serving.length > 0 ? job.home?.() : undefined // no promise (and no await) unless a home is looked up
  const home = homing ? await homing : undefined
  const ordered = session ? session.order(serving) : serving
  const candidates = home && ports.affinity ? ports.affinity.first(ordered, home) : ordered
  if (candidates.length === 0) throw (planned.length > 0 && job.noneServes?.()) || modelNotFound(model, `no enabled channel serves it in group "${group}"`)
  const meter = job.meter()
  if (served !== model) meter.model = served
  const reservation = await hooks.reserve?.(meter, call, group)

  const attempts: RelayOutcome['attempts'] = []
  // The one settle call: every request that passed the reservation ends here once, answered or failed, with every attempt.
  // one object literal, its optional fields set only when present (no spread: this runs for every request)
  const settle = (candidate: RouteCandidate, ended: Ended): void => {
    const outcome: RelayOutcome = {
      input: call, ir: job.ir, model: served, stream: job.stream, reservation, channelId: candidate.channel.id, upstreamModel: candidate.upstreamModel,
      usage: ended.usage, ok: ended.ok, status: ended.status, error: ended.error, aborted: ended.aborted ?? call.signal.aborted, startedAt, firstByteAt: ended.firstByteAt,
      endedAt: performance.now(), attempts, warnings: ended.warnings ?? job.warnings,
    }
    if (served !== model) outcome.requestedModel = model
    if (ended.upstreamSentAt !== undefined) outcome.upstreamSentAt = ended.upstreamSentAt
    if (ended.output !== undefined) outcome.output = ended.output
    hooks.settle(outcome)
  }
  // Anything thrown after the reservation still settles it (a full refund) before it reaches the client.
  const abandon = (error: unknown, candidate: RouteCandidate): unknown => {
    settle(candidate, { ok: false, status: error instanceof GatewayError ? error.status : 500, error: error instanceof Error ? error.message : String(error) })
    return markSettled(error)
  }
  try {
    job.reserved?.(meter)
  } catch (error) {
    throw abandon(error, candidates[0]!)
  }

  const topUp = async (usage: Usage): Promise<boolean> => (hooks.topUp ? hooks.topUp(reservation, call, usage) : true)

  const maxAttempts = Math.max(1, ports.options.get<number>('RelayMaxAttempts'))
  let lastFailure: UpstreamFailure | undefined
  let last = candidates[0]!
  for (const candidate of candidates.slice(0, maxAttempts)) {
    last = candidate
    let sentAt = performance.now()
    // The winning attempt is recorded before settle sees the list (a body's answer settles before it is returned).
    let recorded = false
    const recordSuccess = () => {
      if (!recorded) {
        attempts.push({ channelId: candidate.channel.id, status: 200 })
        session?.served(candidate)
      }
      recorded = true
    }
    const end = (end: AnswerEnd): void => {
      recordSuccess()
      ports.routing.recordResult(candidate.channel.id, end.error && !end.endedByGateway ? { ok: false, message: end.error } : { ok: true })
      const warnings = end.warnings?.length ? [...job.warnings, ...end.warnings] : job.warnings
      settle(candidate, { ok: !end.error, status: 200, usage: end.usage, error: end.error, aborted: end.aborted, firstByteAt: end.firstByteAt, upstreamSentAt: sentAt, output: end.output, warnings })
    }
    let answer: JobAnswer
    try {
      const restoring = job.restore?.() // a retry reads the bytes an earlier attempt let go of
      if (restoring) await restoring
      answer = await job.attempt(candidate, { sending: () => (sentAt = performance.now()), end, topUp })
    } catch (error) {
      if (!(error instanceof UpstreamFailure)) throw abandon(error, candidate)
      attempts.push({ channelId: candidate.channel.id, status: error.status, error: error.message })
      // a client that went away says nothing about the channel: never count it toward auto-disable
      // a refused cached token (renewed for the next call) counts as a failure, not as a dead key
      const outcome = error.credentialsRenewed ? { message: 'the upstream refused the cached access token; a new one is minted for the next call' } : { status: error.status || undefined, message: error.message }
      if (!call.signal.aborted) ports.routing.recordResult(candidate.channel.id, { ok: false, ...outcome, key: candidate.key })
      lastFailure = error
      if (!error.retryable || call.signal.aborted) break
      continue
    }
    recordSuccess()
    // The gateway's own time for this request, from its arrival (routing, auth, body parsing included) to the
    // response headers, the upstream wait of the winning attempt (to its answer, or a stream's first content) excluded.
    const since = call.receivedAt ?? startedAt
    answer.headers['x-tollgate-overhead-ms'] = (performance.now() - since - (answer.upstreamDoneAt - sentAt)).toFixed(3)
    return new Response(answer.body, { status: 200, headers: answer.headers })
  }
  const failure = finalError(model, lastFailure!)
  // Failed requests are settled too: logs and reservations must see them, with every attempt.
  settle(last, { ok: false, status: failure.status, error: failure.message })
  throw markSettled(failure)
}

function modelNotFound(model: string, why: string): GatewayError {
  return new NotFoundError(`model not found: "${model}" (${why})`, 'model_not_found')
}

function finalError(model: string, failure: UpstreamFailure): GatewayError {
  if (!failure.retryable && failure.status >= 400) return new GatewayError(failure.status, 'upstream_error', failure.message)
  return new GatewayError(503, 'upstream_unavailable', `all channels for model "${model}" failed; last error: ${failure.message}`)
}
