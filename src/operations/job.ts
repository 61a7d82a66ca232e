import { NotFoundError } from '../errors'
import type { Operation, OperationAnswer, OperationDialect, OperationRequest } from './types'
import { operationRequest, type UpstreamTarget } from '../providers/upstream'
import { UpstreamFailure } from '../relay/failure'
import { runRelay, type RelayJob } from '../relay/engine'
import type { RouteCandidate } from '../relay/routing'
import type { RelayCall, RelayHooks, RelayPorts } from '../relay/types'
import { followUp } from './follow-up'
import { settledAtEnd } from './job-stream'
import { asUpstreamFailure, guardedFetch, openAttempt } from '../relay/send'
import { maskedFailure, operationFailure } from './job-failure'
import { mappedStatus } from '../relay/overrides/channel-overrides'
import { withHeaderOverride } from '../relay/overrides/header-override'

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
 * The model APIs besides chat (embeddings, rerank, images, audio, moderations, completions) as a job of the engine
 * (engine.ts): the body decoded by the operation, and per attempt encoded in the dialect the channel's provider
 * serves the operation in, sent, and its answer read by that dialect.
 */
export function relayOperation<R extends OperationRequest>(ports: RelayPorts, op: Operation<R>, input: OperationInput, hooks: RelayHooks): Promise<Response> {
  return runRelay(ports, input, operationJob(ports, op, input), hooks)
}

function operationJob<R extends OperationRequest>(ports: RelayPorts, op: Operation<R>, input: OperationInput): RelayJob {
  const request = op.decode(input.body, { bytes: input.bytes })
  const dialects = new Map<RouteCandidate, OperationDialect<R>>()
  return {
    model: request.model,
    stream: request.stream,
    warnings: [],
    serving(planned) {
      for (const { candidate, dialect } of servedBy(op, planned)) if (!request.stream || dialect.streams !== false) dialects.set(candidate, dialect)
      return [...dialects.keys()]
    },
    noneServes: () => new NotFoundError(`model "${request.model}" is served, but none of its channels serves ${request.stream ? 'streamed ' : ''}${op.path}`, 'model_not_found'),
    meter: () => request.meter,
    async attempt(candidate, attempt) {
      attempt.sending()
      const { answer, abort } = await attemptOperation(ports, op, dialects.get(candidate)!, request, candidate, input)
      const firstByteAt = performance.now()
      const end = (rest: { error?: string; aborted?: boolean }) => attempt.end({ usage: answer.usage, firstByteAt, error: rest.error ?? answer.error, aborted: rest.aborted ?? input.signal.aborted })
      const idleMs = ports.options.get<number>('RelayStreamIdleSeconds') * 1000
      const body = answer.body instanceof ReadableStream ? settledAtEnd(answer.body, end, { abort, idleMs, streams: ports.ops?.streams }) : answer.body
      if (!(answer.body instanceof ReadableStream)) end({})
      const headers: Record<string, string> = { 'content-type': answer.contentType, 'x-request-id': input.requestId, ...answer.headers }
      return { body, headers, upstreamDoneAt: firstByteAt }
    },
  }
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
  deps: Omit<RelayPorts, 'routing'>,
  op: Operation<R>,
  dialect: OperationDialect<R>,
  request: R,
  candidate: RouteCandidate,
  input: OperationInput,
): Promise<{ answer: OperationAnswer; abort: AbortController }> {
  const { channel, key } = candidate
  const call = dialect.encode(request, candidate.upstreamModel)
  const { overrides } = channel
  const withOverrides = (headers: Record<string, string>) => (overrides.headers ? withHeaderOverride(headers, overrides.headers, { key, requestId: input.requestId }) : headers)
  const scope = openAttempt(deps, input.signal)
  try {
    const target = await operationTarget(deps, op, candidate, request.model, call.path)
    const sent = withOverrides({ ...target.headers, ...(call.contentType ? { 'content-type': call.contentType } : {}), ...call.headers })
    const response = await guardedFetch(deps, target.url, { headers: sent, body: call.body, proxy: overrides.proxy }, scope, input.signal, key)
    if (!response.ok) {
      const renewed = channel.provider.connector?.rejected?.({ key }, response.status) ?? false
      const failure = await operationFailure(dialect, response, key, mappedStatus(overrides, response.status))
      failure.credentialsRenewed = renewed
      throw failure
    }
    const follow = followUp(target.url, async (url) => {
      const polled = await guardedFetch(deps, url, { method: 'GET', headers: withOverrides(target.headers), proxy: overrides.proxy }, scope, input.signal, key)
      if (!polled.ok) throw await operationFailure(dialect, polled, key, mappedStatus(overrides, polled.status))
      return polled
    }, scope.abort.signal)
    return { answer: await dialect.decode(response, request, follow), abort: scope.abort }
  } catch (error) {
    // a dialect's failure may quote what the upstream sent in place of its answer, key included
    throw maskedFailure(asUpstreamFailure(error, scope, input.signal, key), key)
  } finally {
    scope.close()
  }
}

/**
 * Where one operation call goes and with which credentials: from the provider's data, or made per call by its
 * connector (Vertex: the region's host and a minted token). Credentials that cannot be used are the channel's
 * fault: the next channel is tried.
 */
async function operationTarget(deps: Pick<RelayPorts, 'outbound'>, op: Operation<OperationRequest>, candidate: RouteCandidate, clientModel: string, path?: string): Promise<UpstreamTarget> {
  const { channel, key, upstreamModel } = candidate
  const endpoint = channel.provider.operations![op.id]!
  const prepare = channel.provider.connector?.prepareOperation
  if (!prepare) return operationRequest(channel.provider, channel.baseUrl, path ? { ...endpoint, path } : endpoint, upstreamModel, key, { other: channel.other })
  try {
    return await prepare({ operation: op.id, model: upstreamModel, clientModel, key, baseUrl: channel.baseUrl, other: channel.other, fetch: deps.outbound.fetch })
  } catch (error) {
    throw new UpstreamFailure(0, `the channel's credentials could not be used: ${(error as Error).message}`, true)
  }
}
