import type { AppDeps } from '../deps'
import { GatewayError, NotFoundError } from '../errors'
import type { Operation, OperationAnswer, OperationDialect, OperationRequest } from '../operations/types'
import { operationRequest } from '../providers/upstream'
import { tokenAllowsModel } from './auth/model-allowed'
import { UpstreamFailure } from './failure'
import { markSettled, modelNotFound, finalError, type RelayCall, type RelayOutcome, type SettleHook } from './pipeline'
import type { RouteCandidate } from './routing'
import { settledAtEnd } from './operation-stream'
import { asUpstreamFailure, guardedFetch, openAttempt } from './send'
import { maskedFailure, operationFailure } from './operation-failure'

export interface OperationInput extends RelayCall {
  /** the client's body: a JSON object, or FormData for multipart operations */
  body: unknown
  /** the body's size in bytes (a bound for estimates) */
  bytes: number
}

/** A candidate channel with the dialect and endpoint its provider serves the operation in. */
interface Served<R extends OperationRequest> {
  candidate: RouteCandidate
  dialect: OperationDialect<R>
}

/**
 * The pipeline for the model APIs besides chat (embeddings, rerank, images, audio, moderations, completions):
 * the same steps as `relay()` (authorize the model → plan channels → reserve → per candidate: encode in the
 * provider's dialect, send, fail over before the first byte → answer → settle), the body translated by the
 * operation's dialect instead of a chat protocol.
 */
export async function relayOperation<R extends OperationRequest>(
  deps: Pick<AppDeps, 'routing' | 'options' | 'ops' | 'outbound'>,
  op: Operation<R>,
  input: OperationInput,
  settle: SettleHook,
): Promise<Response> {
  const startedAt = performance.now()
  const request = op.decode(input.body, { bytes: input.bytes })
  const model = request.model
  if (!tokenAllowsModel(input.token, model)) throw modelNotFound(model, 'this token may not use it')
  const group = input.token.group || input.user.group
  const planned = await deps.routing.planRoute(group, model)
  if (planned.length === 0) throw modelNotFound(model, `no enabled channel serves it in group "${group}"`)
  const served = servedBy(op, planned)
  if (served.length === 0) throw new NotFoundError(`model "${model}" is served, but none of its channels serves ${op.path}`, 'model_not_found')
  const reservation = await settle.reserve?.(request.meter, input, group)

  const attempts: RelayOutcome['attempts'] = []
  const outcome = (candidate: RouteCandidate, rest: Partial<RelayOutcome>): RelayOutcome => ({
    input, model, stream: request.stream, reservation, channelId: candidate.channel.id, upstreamModel: candidate.upstreamModel,
    usage: undefined, ok: false, status: 0, aborted: input.signal.aborted, startedAt, firstByteAt: undefined, endedAt: performance.now(), attempts, warnings: [], ...rest,
  })
  let lastFailure: UpstreamFailure | undefined
  const maxAttempts = Math.max(1, deps.options.get<number>('RelayMaxAttempts'))
  for (const { candidate, dialect } of served.slice(0, maxAttempts)) {
    const sentAt = performance.now()
    let answer: OperationAnswer
    let upstreamAbort: AbortController
    try {
      ;({ answer, abort: upstreamAbort } = await attemptOperation(deps, op, dialect, request, candidate, input))
    } catch (error) {
      if (!(error instanceof UpstreamFailure)) {
        settle(outcome(candidate, { status: error instanceof GatewayError ? error.status : 500, error: (error as Error).message }))
        throw markSettled(error)
      }
      attempts.push({ channelId: candidate.channel.id, status: error.status, error: error.message })
      if (!input.signal.aborted) deps.routing.recordResult(candidate.channel.id, { ok: false, status: error.status || undefined, message: error.message, key: candidate.key })
      lastFailure = error
      if (!error.retryable || input.signal.aborted) break
      continue
    }
    attempts.push({ channelId: candidate.channel.id, status: 200 })
    deps.routing.recordResult(candidate.channel.id, { ok: true })
    const firstByteAt = performance.now()
    const done = (rest: Partial<RelayOutcome>) => settle(outcome(candidate, { ok: true, status: 200, usage: answer.usage, firstByteAt, upstreamSentAt: sentAt, ...rest }))
    const idleMs = deps.options.get<number>('RelayStreamIdleSeconds') * 1000
    const body = answer.body instanceof ReadableStream ? settledAtEnd(answer.body, done, { abort: upstreamAbort, idleMs, streams: deps.ops?.streams }) : answer.body
    if (!(answer.body instanceof ReadableStream)) done({})
    const headers: Record<string, string> = { 'content-type': answer.contentType, 'x-request-id': input.requestId, ...answer.headers }
    headers['x-tollgate-overhead-ms'] = (performance.now() - (input.receivedAt ?? startedAt) - (firstByteAt - sentAt)).toFixed(3)
    return new Response(body, { status: 200, headers })
  }
  const failure = finalError(model, lastFailure!)
  settle(outcome(served[Math.min(served.length, maxAttempts) - 1]!.candidate, { status: failure.status, error: failure.message }))
  throw markSettled(failure)
}

function servedBy<R extends OperationRequest>(op: Operation<R>, planned: RouteCandidate[]): Served<R>[] {
  const served: Served<R>[] = []
  for (const candidate of planned) {
    const endpoint = candidate.channel.provider.operations?.[op.id]
    const dialect = endpoint && op.dialects[endpoint.dialect]
    if (dialect) served.push({ candidate, dialect })
  }
  return served
}

/** One upstream call of an operation; throws UpstreamFailure for anything before the answer is the client's. */
async function attemptOperation<R extends OperationRequest>(
  deps: Pick<AppDeps, 'options' | 'ops' | 'outbound'>,
  op: Operation<R>,
  dialect: OperationDialect<R>,
  request: R,
  candidate: RouteCandidate,
  input: OperationInput,
): Promise<{ answer: OperationAnswer; abort: AbortController }> {
  const { channel, key } = candidate
  const endpoint = channel.provider.operations![op.id]!
  const call = dialect.encode(request, candidate.upstreamModel)
  const target = operationRequest(channel.provider, channel.baseUrl, call.path ? { ...endpoint, path: call.path } : endpoint, candidate.upstreamModel, key, { other: channel.other })
  const headers = call.contentType ? { ...target.headers, 'content-type': call.contentType } : target.headers
  const scope = openAttempt(deps, input.signal)
  try {
    const response = await guardedFetch(deps, target.url, { headers, body: call.body }, scope, input.signal, key)
    if (!response.ok) throw await operationFailure(dialect, response, key)
    return { answer: await dialect.decode(response, request), abort: scope.abort }
  } catch (error) {
    // a dialect's failure may quote what the upstream sent in place of its answer, key included
    throw maskedFailure(asUpstreamFailure(error, scope, input.signal, key), key)
  } finally {
    scope.close()
  }
}
