import type { AppDeps } from '../deps'
import type { AssistantPart, IrRequest } from '../ir'
import type { Protocol } from '../protocols/types'
import { addressGuard, isRedirect, redirectMessage, UpstreamRefused } from '../providers/address-guard'
import { isRetryableStatus, networkFailure, UpstreamFailure } from './failure'
import { maskSecrets } from './mask'
import type { AttemptPlan, RelayInput } from './pipeline'
import type { RouteCandidate } from './routing'
import { convertStream, outputNeeded, passthroughStream, type StreamEnd } from './stream-pipe'
import { peekStream } from './stream-peek'

export interface AttemptInput extends AttemptPlan {
  candidate: RouteCandidate
  input: RelayInput
  ir: IrRequest
  client: Protocol
  onEnd(end: StreamEnd & { firstByteAt: number | undefined }): void
}

export interface AttemptResult {
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
export async function attemptUpstream(deps: AppDeps, a: AttemptInput): Promise<AttemptResult> {
  // past the shutdown grace period no new attempt starts (ops/open-streams): the client gets a 503 in its shape
  if (deps.ops?.streams.closed) throw new UpstreamFailure(503, 'the gateway is shutting down', false)
  const upstreamAbort = new AbortController()
  deps.ops?.streams.attemptStarted(upstreamAbort)
  const timeoutMs = deps.options.get<number>('RelayTimeoutSeconds') * 1000
  const timer = setTimeout(() => upstreamAbort.abort(new DOMException('upstream timed out', 'TimeoutError')), timeoutMs)
  // The client going away aborts the upstream call (a listener: cheaper than AbortSignal.any per attempt).
  const clientGone = () => upstreamAbort.abort(a.input.signal.reason)
  if (a.input.signal.aborted) clientGone()
  else a.input.signal.addEventListener('abort', clientGone)
  const key = a.candidate.key
  try {
    let response: Response
    try {
      // SSRF: link-local and metadata targets never, private ones only if allowed; nothing is sent when refused
      const checking = addressGuard.check(a.url, deps.options.get<boolean>('ChannelPrivateNetworksAllowed'))
      if (checking) await checking
      response = await fetch(a.url, { method: 'POST', headers: a.headers, body: a.body.text, signal: upstreamAbort.signal, redirect: 'manual' })
    } catch (error) {
      if (error instanceof UpstreamRefused) throw new UpstreamFailure(0, error.message, true)
      if (a.input.signal.aborted) throw new UpstreamFailure(0, 'the client went away', false)
      throw networkFailure(upstreamAbort.signal.aborted ? upstreamAbort.signal.reason : error)
    }
    if (isRedirect(response.status)) {
      void response.body?.cancel().catch(() => {})
      throw new UpstreamFailure(response.status, maskSecrets(redirectMessage(response.status, response.headers.get('location')), key), true)
    }
    if (!response.ok) throw await failureOf(a.upstreamProtocol, response, key)
    const result = a.ir.stream ? await streamResult(deps, a, response, upstreamAbort) : await bodyResult(a, response, key)
    return result
  } catch (error) {
    if (error instanceof UpstreamFailure) throw error
    if (upstreamAbort.signal.aborted && !a.input.signal.aborted) throw networkFailure(upstreamAbort.signal.reason)
    throw new UpstreamFailure(0, maskSecrets((error as Error).message, key), !a.input.signal.aborted)
  } finally {
    clearTimeout(timer)
    deps.ops?.streams.attemptEnded(upstreamAbort)
  }
}

async function streamResult(deps: AppDeps, a: AttemptInput, response: Response, upstreamAbort: AbortController): Promise<AttemptResult> {
  if (!response.body) throw new UpstreamFailure(0, 'upstream sent no body', true)
  const decoder = a.upstreamProtocol.createStreamDecoder()
  let peeked: Awaited<ReturnType<typeof peekStream>>
  try {
    peeked = await peekStream(response.body, decoder)
  } catch (error) {
    // what the upstream sent in place of its stream may quote the key
    if (error instanceof UpstreamFailure) throw new UpstreamFailure(error.status, maskSecrets(error.message, a.candidate.key), error.retryable)
    throw error
  }
  const firstByteAt = performance.now()
  // open until its end: shutdown waits for it, and past the grace period aborts the upstream (ops/open-streams)
  deps.ops?.streams.add(upstreamAbort)
  const hooks = {
    abortUpstream: (reason?: Error) => upstreamAbort.abort(reason),
    idleMs: deps.options.get<number>('RelayStreamIdleSeconds') * 1000,
    onEnd: (end: StreamEnd) => {
      deps.ops?.streams.delete(upstreamAbort)
      a.onEnd({ ...end, firstByteAt })
    },
  }
  const body = a.passthrough
    ? passthroughStream(
        peeked,
        a.upstreamProtocol.createUsageTap(),
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
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new UpstreamFailure(0, `upstream sent a body that is not JSON: ${maskSecrets(text.slice(0, 200), key)}`, true)
  }
  const firstByteAt = performance.now()
  const headers = { 'content-type': 'application/json', 'x-request-id': a.input.requestId }
  if (a.passthrough) {
    const usage = a.upstreamProtocol.usageFromBody(json)
    a.onEnd({ usage, aborted: false, firstByteAt, output: outputNeeded(usage, { aborted: false }) ? outputOf(a.upstreamProtocol, json) : undefined })
    return { body: text, headers, upstreamDoneAt: firstByteAt }
  }
  const decoded = a.upstreamProtocol.decodeResponse(json)
  const encoded = a.client.encodeResponse({ ...decoded.value, model: a.ir.model }, a.ir)
  a.onEnd({ usage: decoded.value.usage, aborted: false, firstByteAt, output: outputNeeded(decoded.value.usage, { aborted: false }) ? textOf(decoded.value.parts) : undefined })
  return { body: JSON.stringify(encoded.value), headers, upstreamDoneAt: firstByteAt }
}

/** What a non-stream answer gave the client, for metering when the upstream reported no usage. */
function textOf(parts: AssistantPart[]): string {
  return parts.map((p) => (p.type === 'text' || p.type === 'reasoning' ? p.text : p.type === 'tool-call' ? p.name + p.arguments : '')).join('')
}

function outputOf(protocol: Protocol, json: unknown): string {
  try {
    return textOf(protocol.decodeResponse(json).value.parts)
  } catch {
    return ''
  }
}

async function failureOf(protocol: Protocol, response: Response, key: string): Promise<UpstreamFailure> {
  const text = await response.text().catch(() => '')
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  const wire = protocol.parseError(response.status, body)
  const message = maskSecrets(wire.message || text.slice(0, 500) || response.statusText, key)
  return new UpstreamFailure(response.status, `upstream ${response.status}: ${message}`, isRetryableStatus(response.status))
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
