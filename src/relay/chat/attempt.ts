import type { AssistantPart, IrRequest, IrResponse } from '../../ir'
import type { Protocol, UpstreamProtocol } from '../../protocols/types'
import { isRetryableStatus, UpstreamFailure } from '../failure'
import { maskSecrets } from '../mask'
import { collectedAnswer } from './collected-stream'
import type { RelayInput, RelayPorts } from '../types'
import type { UpstreamBody } from './upstream-body'
import type { RouteCandidate } from '../routing'
import { convertStream, outputNeeded, passthroughStream, type StreamEnd } from '../stream/pipe'
import { peekStream } from '../stream/peek'
import { asUpstreamFailure, guardedExchange, guardedFetch, openAttempt, type AttemptScope } from '../send'
import { mappedStatus } from '../overrides/channel-overrides'
import { idOfResponse, responseIdTap } from '../responses/response-id-tap'

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
  /** the call made over the vendor's WebSocket, not HTTP (providers' `socketCall`), answering with a Response all the same */
  exchange?: (signal: AbortSignal) => Promise<Response>
  /** the upstream refused a call `connect` made (its status); true when cached credentials were dropped to be made anew */
  rejected?: (status: number) => boolean
}

interface AttemptInput extends AttemptPlan {
  candidate: RouteCandidate
  input: RelayInput
  ir: IrRequest
  client: Protocol
  onEnd(end: StreamEnd & { firstByteAt: number | undefined }): void
  /** a passed-through Responses answer's id (a stored response: where it lives is remembered) */
  /** settles once the id's home is readable by every node (a non-stream answer waits for it) */
  answerId?(id: string): Promise<void>
}

interface AttemptResult {
  /** what the client gets with status 200 (the pipeline adds its own headers before building the Response) */
  body: string | ReadableStream<Uint8Array>
  headers: Record<string, string>
  /** when the upstream's answer (non-stream) or first content (stream) had arrived */
  upstreamDoneAt: number
}

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' }

/**
 * One upstream call. Throws UpstreamFailure for anything that goes wrong before the client's first byte;
 * after that, the stream carries the client protocol's own error event.
 */
export async function attemptUpstream(deps: Omit<RelayPorts, 'routing'>, a: AttemptInput): Promise<AttemptResult> {
  const scope = openAttempt(deps, a.input.signal)
  const key = a.candidate.key
  try {
    const response = a.exchange ? await guardedExchange(a.exchange, a.candidate.channel.overrides.proxy, scope, a.input.signal, key) : await fetched(deps, a, scope)
    if (!response.ok) {
      const renewed = a.rejected?.(response.status) ?? false
      const failure = await failureOf(a.upstreamProtocol, response, key, mappedStatus(a.candidate.channel.overrides, response.status))
      failure.credentialsRenewed = renewed
      throw failure
    }
    return a.ir.stream ? await streamResult(deps, a, response, scope.abort) : await bodyResult(a, response, key)
  } catch (error) {
    throw asUpstreamFailure(error, scope, a.input.signal, key)
  } finally {
    scope.close()
  }
}

async function fetched(deps: Omit<RelayPorts, 'routing'>, a: AttemptInput, scope: AttemptScope): Promise<Response> {
  const { url, headers } = a.connect ? await connected(a.connect) : a
  // the payload goes to guardedFetch alone, which lets go of it once fetch has it (a retry plans its own body)
  const init = { headers, body: a.body.payload, proxy: a.candidate.channel.overrides.proxy }
  a.body.payload = ''
  return guardedFetch(deps, url, init, scope, a.input.signal, a.candidate.key)
}

/** The channel's credentials could not make this call (a malformed key, a token endpoint refusing): the channel's fault, so the next one is tried. */
async function connected(connect: NonNullable<AttemptInput['connect']>): Promise<{ url: string; headers: Record<string, string> }> {
  try {
    return await connect()
  } catch (error) {
    throw new UpstreamFailure(0, `the channel's credentials could not be used: ${(error as Error).message}`, true)
  }
}

async function streamResult(deps: Omit<RelayPorts, 'routing'>, a: AttemptInput, response: Response, upstreamAbort: AbortController): Promise<AttemptResult> {
  if (!response.body) throw new UpstreamFailure(0, 'upstream sent no body', true)
  const decoder = a.upstreamProtocol.createStreamDecoder()
  let peeked: Awaited<ReturnType<typeof peekStream>>
  try {
    peeked = await peekStream(response.body, decoder, a.upstreamProtocol.createFrameParser?.())
  } catch (error) {
    // what the upstream sent in place of its stream may quote the key
    if (error instanceof UpstreamFailure) throw new UpstreamFailure(error.status, maskSecrets(error.message, a.candidate.key), error.retryable)
    throw error
  }
  const firstByteAt = performance.now()
  // open until its end: shutdown waits for it, and past the grace period aborts the upstream (telemetry/open-streams)
  deps.ops?.streams.add(upstreamAbort)
  const hooks = {
    abortUpstream: (reason?: Error) => upstreamAbort.abort(reason),
    idleMs: deps.options.get<number>('RelayStreamIdleSeconds') * 1000,
    onEnd: (end: StreamEnd) => {
      deps.ops?.streams.delete(upstreamAbort)
      a.onEnd({ ...end, firstByteAt })
    },
  }
  const body = a.rawAnswer
    ? passthroughStream(
        peeked,
        a.answerId ? responseIdTap(a.upstreamProtocol.createUsageTap(), a.answerId) : a.upstreamProtocol.createUsageTap(),
        (message) => a.client.renderStreamError({ status: 502, code: 'upstream_error', message }),
        hooks,
        a.body.dropUsageChunk ? isUsageOnlyChunk : undefined,
        decoder,
      )
    : convertStream(peeked, decoder, a.client.createStreamEncoder({ request: a.ir, model: a.ir.model }), hooks)
  return { body, headers: { ...SSE_HEADERS, 'x-request-id': a.input.requestId }, upstreamDoneAt: firstByteAt }
}

async function bodyResult(a: AttemptInput, response: Response, key: string): Promise<AttemptResult> {
  const text = await response.text()
  const firstByteAt = performance.now()
  const headers = { 'content-type': 'application/json', 'x-request-id': a.input.requestId }
  // an upstream that answers only as a stream: a non-stream client gets the stream folded into one answer
  if (a.upstreamProtocol.streamsOnly) return encodedResult(a, collectedAnswer(a.upstreamProtocol, text, key), headers, firstByteAt)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new UpstreamFailure(0, `upstream sent a body that is not JSON: ${maskSecrets(text.slice(0, 200), key)}`, true)
  }
  // a failure answered with 200 (Tencent Cloud): like a 4xx, the channel's fault, nothing billed
  const carried = a.upstreamProtocol.bodyError?.(json)
  if (carried) throw new UpstreamFailure(carried.status, `upstream ${carried.code ?? carried.status}: ${maskSecrets(carried.message, key)}`, false)
  if (a.rawAnswer || a.passthrough) {
    const id = a.answerId && idOfResponse(json)
    // written before the client has the id: a retrieve on another node at once must find its home
    if (id) await a.answerId!(id)
    const usage = a.upstreamProtocol.usageFromBody(json)
    a.onEnd({ usage, aborted: false, firstByteAt, output: outputNeeded(usage, { aborted: false }) ? outputOf(a.upstreamProtocol, json) : undefined })
    return { body: text, headers, upstreamDoneAt: firstByteAt }
  }
  return encodedResult(a, a.upstreamProtocol.decodeResponse(json).value, headers, firstByteAt)
}

/** A decoded answer in the client's protocol, reported to metering. */
function encodedResult(a: AttemptInput, answer: IrResponse, headers: Record<string, string>, firstByteAt: number): AttemptResult {
  const encoded = a.client.encodeResponse({ ...answer, model: a.ir.model }, a.ir)
  a.onEnd({ usage: answer.usage, aborted: false, firstByteAt, output: outputNeeded(answer.usage, { aborted: false }) ? textOf(answer.parts) : undefined })
  return { body: JSON.stringify(encoded.value), headers, upstreamDoneAt: firstByteAt }
}

/** What a non-stream answer gave the client, for metering when the upstream reported no usage. */
function textOf(parts: AssistantPart[]): string {
  return parts.map((p) => (p.type === 'text' || p.type === 'reasoning' ? p.text : p.type === 'tool-call' ? p.name + p.arguments : '')).join('')
}

function outputOf(protocol: UpstreamProtocol, json: unknown): string {
  try {
    return textOf(protocol.decodeResponse(json).value.parts)
  } catch {
    return ''
  }
}

/** `status`: the upstream's, or what the channel's status_code_mapping reads it as (it decides failover). */
async function failureOf(protocol: UpstreamProtocol, response: Response, key: string, status: number): Promise<UpstreamFailure> {
  const text = await response.text().catch(() => '')
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  const wire = protocol.parseError(response.status, body)
  const message = maskSecrets(wire.message || text.slice(0, 500) || response.statusText, key)
  const mapped = status === response.status ? '' : ` (read as ${status})`
  return new UpstreamFailure(status, `upstream ${response.status}${mapped}: ${message}`, isRetryableStatus(status))
}

/** A chat chunk that only carries usage (`choices: []`), asked for by us, not by the client. */
function isUsageOnlyChunk(event: { data: string }): boolean {
  if (!event.data.includes('"usage"')) return false
  try {
    const chunk = JSON.parse(event.data) as { choices?: unknown[] }
    return Array.isArray(chunk.choices) && chunk.choices.length === 0
  } catch {
    return false
  }
}
