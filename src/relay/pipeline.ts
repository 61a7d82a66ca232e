import type { TokenRow, UserRow } from '../db/repos'
import type { AppDeps } from '../deps'
import { GatewayError, NotFoundError } from '../errors'
import type { IrRequest, Usage } from '../ir'
import type { OutboundFetch } from '../outbound/fetch'
import type { Protocol, ProtocolId, UpstreamProtocol } from '../protocols/types'
import { upstreamRequest } from '../providers'
import { tokenAllowsModel } from './auth/model-allowed'
import { UpstreamFailure } from './failure'
import { protocolFor } from './protocol-registry'
import type { RouteCandidate } from './routing'
import { attemptUpstream, type AttemptResult } from './attempt'
import { convertedBody, passthroughBody, payloadText, sharedPayload, type UpstreamBody } from './upstream-body'
import { upstreamProtocolFor } from './upstream-protocol'
import { upstreamProtocolById } from './upstream-protocols'
import { chatMeter } from './chat-meter'
import { chatRequest, withOutputCap, type ChatRequest } from './chat-request'
import { withoutDeclined } from './declined-choices'
import type { RequestBody } from './request-body'
import type { Meter } from './meter'

/** Who asks and how to reach them: what every relay operation (chat or not) hands the pipeline and metering. */
export interface RelayCall {
  /** the chat protocol, or for other operations the route label (`/v1/embeddings`) */
  protocol: string
  headers: Headers
  token: TokenRow
  user: UserRow
  requestId: string
  clientIp: string
  /** aborted when the client goes away */
  signal: AbortSignal
  /** performance.now() when the request arrived (before routing, auth and body parsing), for x-tollgate-overhead-ms */
  receivedAt?: number
}

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
  /** the model the client asked for, and whether it asked for a stream */
  model: string
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
  /** what the settle hook's `reserve` returned for this request */
  reservation?: unknown
  /** text the client received (text, reasoning, tool arguments): the usage estimate when the upstream reported none */
  output?: string
}

/**
 * Runs once per request after the model is authorized and routable, before the first upstream attempt;
 * throws (or rejects) to refuse the request (metering: price, rate limits, quota). Awaited: the quota decision
 * may be the database's. Its result reaches settle.
 */
type ReserveHook = (meter: Meter, input: RelayCall, group: string) => unknown

/** Called once per request that passed `reserve`, when it is over (failures too). */
export type SettleHook = ((outcome: RelayOutcome) => void) & { reserve?: ReserveHook }

const settledErrors = new WeakSet<object>()
/** Whether `error` was thrown by a request that settle already saw (and logged): refusals before it were not. */
export function wasSettled(error: unknown): boolean {
  return typeof error === 'object' && error !== null && settledErrors.has(error)
}
export function markSettled<T>(error: T): T {
  if (typeof error === 'object' && error !== null) settledErrors.add(error)
  return error
}

/**
 * The one relay pipeline: decode → authorize the model → plan channels → for each candidate: build the
 * upstream body (passthrough or conversion), send, and on a failure before the first byte try the next →
 * stream or return the answer in the client's protocol → settle.
 */
export async function relay(deps: AppDeps, input: RelayInput, settle: SettleHook): Promise<Response> {
  const startedAt = performance.now()
  const client = protocolFor(input.protocol)
  // a large body is decoded only as far as routing needs: its top-level fields (chat-request.ts)
  let request = chatRequest(client, input)
  let ir = request.head
  if (!ir.model) throw new GatewayError(400, 'invalid_request', 'model is required', 'model')
  if (!tokenAllowsModel(input.token, ir.model)) throw modelNotFound(ir.model, 'this token may not use it')

  const group = input.token.group || input.user.group
  const candidates = chatCandidates(await deps.routing.planRoute(group, ir.model))
  if (candidates.length === 0) throw modelNotFound(ir.model, `no enabled channel serves it in group "${group}"`)
  const meter = chatMeter(request, input.body, client.priceChoices?.((key) => input.body.member(key), input.headers))
  const reservation = await settle.reserve?.(meter, input, group)

  const maxAttempts = Math.max(1, deps.options.get<number>('RelayMaxAttempts'))
  const attempts: RelayOutcome['attempts'] = []
  const warnings = [...request.warnings]
  let lastFailure: UpstreamFailure | undefined
  let last: RouteCandidate | undefined
  // Anything thrown after the reservation still settles it (a full refund) before it reaches the client.
  const abandon = (error: unknown, candidate: RouteCandidate): unknown => {
    settle({
      input, ir, model: ir.model, stream: ir.stream, reservation, channelId: candidate.channel.id, upstreamModel: candidate.upstreamModel, usage: undefined, ok: false,
      status: error instanceof GatewayError ? error.status : 500, error: error instanceof Error ? error.message : String(error),
      aborted: input.signal.aborted, startedAt, firstByteAt: undefined, endedAt: performance.now(), attempts, warnings,
    })
    return markSettled(error)
  }
  if (meter.declined) {
    // what no option prices goes no further (metering/price-terms.ts): the request is sent without it
    try {
      const stripped = withoutDeclined(client, input, meter.declined)
      // a declined beta flag only in the header leaves the body as it was: nothing to decode again
      if (stripped.input.body !== input.body) {
        request = chatRequest(client, stripped.input)
        ir = request.head
      }
      input = stripped.input
      warnings.push(...stripped.warnings)
    } catch (error) {
      throw abandon(error, candidates[0]!)
    }
  }
  request = withOutputCap(request, meter) // a request without an output cap is sent with metering's
  if (meter.notes) warnings.push(...meter.notes)
  for (const candidate of candidates.slice(0, maxAttempts)) {
    last = candidate
    let plan: AttemptPlan
    try {
      const restoring = input.body.restore() // a retry reads the bytes an earlier attempt let go of
      if (restoring) await restoring
      plan = planAttempt(deps.outbound.fetch, input, request, client, candidate)
    } catch (error) {
      throw abandon(error, candidate)
    }
    // sent as a Blob that can give the bytes back (the request's own, or a body made from them that holds most of them):
    // they are not needed again unless a retry or an exact count asks (restore)
    input.body.release(plan.body)
    const attemptWarnings = plan.body.warnings.length > 0 ? [...warnings, ...plan.body.warnings] : warnings
    const sentAt = performance.now()
    const base = { input, ir, model: ir.model, stream: ir.stream, reservation, channelId: candidate.channel.id, upstreamModel: candidate.upstreamModel, startedAt, upstreamSentAt: sentAt, attempts, warnings: attemptWarnings }
    // The winning attempt is recorded before settle sees the list (non-stream answers settle before returning).
    let recorded = false
    const recordSuccess = () => {
      if (!recorded) attempts.push({ channelId: candidate.channel.id, status: 200 })
      recorded = true
    }
    let result: AttemptResult
    try {
      result = await attemptUpstream(deps, { ...plan, candidate, input, client, onEnd: (end) => {
        recordSuccess()
        deps.routing.recordResult(candidate.channel.id, end.error ? { ok: false, message: end.error } : { ok: true })
        settle({ ...base, usage: end.usage, ok: !end.error, status: 200, error: end.error, aborted: end.aborted, firstByteAt: end.firstByteAt, endedAt: performance.now(), output: end.output })
      } })
    } catch (error) {
      if (!(error instanceof UpstreamFailure)) throw abandon(error, candidate)
      attempts.push({ channelId: candidate.channel.id, status: error.status, error: error.message })
      // a client that went away says nothing about the channel: never count it toward auto-disable
      // a refused cached token (renewed for the next call) counts as a failure, not as a dead key
      const outcome = error.credentialsRenewed ? { message: 'the upstream refused the cached access token; a new one is minted for the next call' } : { status: error.status || undefined, message: error.message }
      if (!input.signal.aborted) deps.routing.recordResult(candidate.channel.id, { ok: false, ...outcome, key: candidate.key })
      lastFailure = error
      if (!error.retryable || input.signal.aborted) break
      continue
    }
    recordSuccess()
    // The gateway's own time for this request, from its arrival (routing, auth, body parsing included) to the
    // response headers, the upstream wait of the winning attempt (to its answer, or a stream's first content) excluded.
    const since = input.receivedAt ?? startedAt
    result.headers['x-tollgate-overhead-ms'] = (performance.now() - since - (result.upstreamDoneAt - sentAt)).toFixed(3)
    return new Response(result.body, { status: 200, headers: result.headers })
  }
  const failure = finalError(ir.model, lastFailure!)
  // Failed requests are settled too: logs and reservations must see them, with every attempt.
  settle({
    input, ir, model: ir.model, stream: ir.stream, reservation, channelId: last!.channel.id, upstreamModel: last!.upstreamModel, usage: undefined, ok: false, status: failure.status,
    error: failure.message, aborted: input.signal.aborted, startedAt, firstByteAt: undefined, endedAt: performance.now(), attempts, warnings,
  })
  throw markSettled(failure)
}

export interface AttemptPlan {
  upstreamProtocol: UpstreamProtocol
  /** the request as this attempt's answer encoders see it: its settings and tools (chat-request.ts `settings`) */
  ir: IrRequest
  /** the client's body went on as is (or patched) */
  passthrough: boolean
  /** the answer's bytes go to the client as they came (passthrough over the same framing) */
  rawAnswer: boolean
  body: UpstreamBody
  url: string
  headers: Record<string, string>
  /** URL and headers made per call (signed, or with a minted token), once the body is known */
  connect?: () => Promise<{ url: string; headers: Record<string, string> }>
  /** the upstream refused a call `connect` made (its status); true when cached credentials were dropped to be made anew */
  rejected?: (status: number) => boolean
}

function planAttempt(fetch: OutboundFetch, input: RelayInput, request: ChatRequest, client: Protocol, candidate: RouteCandidate): AttemptPlan {
  const { channel } = candidate
  const provider = channel.provider
  const ir = request.head
  const { protocol, passthrough } = upstreamProtocolFor(channel, input.protocol, candidate.upstreamModel)
  const upstreamProtocol = passthrough && protocol === client.id ? client : upstreamProtocolById(protocol)
  const sendsAsIs = !provider.connector && !upstreamProtocol.wrapBody
  const bodyInput = { clientProtocol: input.protocol, body: input.body, clientHeaders: input.headers, request, upstreamModel: candidate.upstreamModel, provider, sendsAsIs }
  let body = passthrough ? passthroughBody(bodyInput, client) : convertedBody(bodyInput, upstreamProtocol)
  if (upstreamProtocol.wrapBody) body = wrappedBody(body, upstreamProtocol, input.headers)
  const rawAnswer = passthrough && !upstreamProtocol.createFrameParser
  // an answer's encoder reads the request's settings and tools, never its conversation
  const attemptIr = rawAnswer ? ir : request.settings()
  const connector = provider.connector
  if (connector) {
    const call = { protocol, model: candidate.upstreamModel, clientModel: ir.model, stream: ir.stream, key: candidate.key, baseUrl: channel.baseUrl, other: channel.other, body: payloadText(body), fetch }
    const connectorCall = { ...call, headers: { 'content-type': 'application/json', ...body.headers } }
    return { upstreamProtocol, ir: attemptIr, passthrough, rawAnswer, body, url: '', headers: {}, connect: () => connector.prepare(connectorCall), rejected: (status) => connector.rejected?.(connectorCall, status) ?? false }
  }
  const target = upstreamRequest(provider, channel.baseUrl, protocol, candidate.upstreamModel, ir.stream, candidate.key, { other: channel.other })
  body = sharedPayload(body, input.body)
  return { upstreamProtocol, ir: attemptIr, passthrough, rawAnswer, body, url: target.url, headers: { ...target.headers, ...body.headers } }
}

/** A body for an upstream that carries the client's protocol in its own envelope (Bedrock invoke, Vertex rawPredict). */
function wrappedBody(body: UpstreamBody, upstream: UpstreamProtocol, clientHeaders: Headers): UpstreamBody {
  const warnings = [...body.warnings]
  const wrapped = upstream.wrapBody!(JSON.parse(payloadText(body)) as Record<string, unknown>, clientHeaders, warnings)
  return { payload: wrapped.text, headers: wrapped.headers, dropUsageChunk: body.dropUsageChunk, warnings }
}

/** Channels whose provider speaks a chat protocol (a Jina channel serves the same model names for embeddings only). */
function chatCandidates(candidates: RouteCandidate[]): RouteCandidate[] {
  for (const c of candidates) if (c.channel.provider.protocols.length === 0) return candidates.filter((d) => d.channel.provider.protocols.length > 0)
  return candidates
}

export function modelNotFound(model: string, why: string): GatewayError {
  return new NotFoundError(`model not found: "${model}" (${why})`, 'model_not_found')
}

export function finalError(model: string, failure: UpstreamFailure): GatewayError {
  if (!failure.retryable && failure.status >= 400) return new GatewayError(failure.status, 'upstream_error', failure.message)
  return new GatewayError(503, 'upstream_unavailable', `all channels for model "${model}" failed; last error: ${failure.message}`)
}
