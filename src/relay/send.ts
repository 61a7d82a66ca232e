import { OutboundRedirected, OutboundRefused } from '../outbound/fetch'
import { WebSocketDialFailed } from '../outbound/websocket'
import { networkFailure, UpstreamFailure } from './failure'
import { maskSecrets } from './mask'
import type { RelayPorts } from './types'

/** One upstream attempt's lifetime: its abort controller, the deadline, and the client going away. */
export interface AttemptScope {
  abort: AbortController
  /** clears the deadline and the client listener, and tells shutdown the attempt is over */
  close(): void
}

/**
 * Opens an attempt: aborted past `RelayTimeoutSeconds`, when the client goes away, or at shutdown
 * (telemetry/open-streams). Throws a 503 failure once the shutdown grace period is over.
 */
export function openAttempt(deps: Pick<RelayPorts, 'options' | 'ops'>, clientSignal: AbortSignal): AttemptScope {
  // past the shutdown grace period no new attempt starts (telemetry/open-streams): the client gets a 503 in its shape
  if (deps.ops?.streams.closed) throw new UpstreamFailure(503, 'the gateway is shutting down', false)
  const abort = new AbortController()
  deps.ops?.streams.attemptStarted(abort)
  const timeoutMs = deps.options.get<number>('RelayTimeoutSeconds') * 1000
  const timer = setTimeout(() => abort.abort(new DOMException('upstream timed out', 'TimeoutError')), timeoutMs)
  // The client going away aborts the upstream call (a listener: cheaper than AbortSignal.any per attempt).
  const clientGone = () => abort.abort(clientSignal.reason)
  if (clientSignal.aborted) clientGone()
  else clientSignal.addEventListener('abort', clientGone)
  return {
    abort,
    close() {
      clearTimeout(timer)
      deps.ops?.streams.attemptEnded(abort)
    },
  }
}

/**
 * Sends one upstream request through the outbound guard (nothing is sent to a refused address; the connection goes
 * to the address checked; redirects are not followed). Network errors, timeouts, refusals and redirects become
 * retryable UpstreamFailures, keys masked.
 * `init.body` is handed to fetch and dropped from `init`: fetch keeps its own copy while it sends (of a Blob, none),
 * and a body made for this call alone is then garbage instead of held until the upstream answers.
 */
export async function guardedFetch(
  deps: Pick<RelayPorts, 'outbound'>,
  url: string,
  init: { method?: string; headers: Record<string, string>; body?: string | FormData | Uint8Array<ArrayBuffer> | Blob; proxy?: string },
  scope: AttemptScope,
  clientSignal: AbortSignal,
  key: string,
): Promise<Response> {
  const body = init.body
  init.body = undefined
  try {
    return await deps.outbound.fetch(url, { method: init.method ?? 'POST', headers: init.headers, body, signal: scope.abort.signal, proxy: init.proxy })
  } catch (error) {
    if (error instanceof OutboundRedirected) throw new UpstreamFailure(error.status, maskSecrets(error.message, key), true)
    if (error instanceof OutboundRefused) throw new UpstreamFailure(0, error.message, true)
    if (clientSignal.aborted) throw new UpstreamFailure(0, 'the client went away', false)
    throw networkFailure(scope.abort.signal.aborted ? scope.abort.signal.reason : error, url)
  }
}

/**
 * A call over the vendor's WebSocket (Spark), dialled through the outbound guard by `exchange`: the same failures as
 * guardedFetch (a refused address, a lost connection, the deadline), keys masked. A channel with a proxy is refused:
 * the guarded WebSocket does not dial through one yet.
 */
export async function guardedExchange(exchange: (signal: AbortSignal) => Promise<Response>, proxy: string | undefined, scope: AttemptScope, clientSignal: AbortSignal, key: string): Promise<Response> {
  if (proxy) throw new UpstreamFailure(0, 'this channel sends through a proxy, which its WebSocket API does not support yet', true)
  try {
    return await exchange(scope.abort.signal)
  } catch (error) {
    if (error instanceof WebSocketDialFailed) throw new UpstreamFailure(error.status, maskSecrets(error.message, key), true)
    if (error instanceof OutboundRefused) throw new UpstreamFailure(0, error.message, true)
    if (clientSignal.aborted) throw new UpstreamFailure(0, 'the client went away', false)
    if (scope.abort.signal.aborted) throw networkFailure(scope.abort.signal.reason)
    throw new UpstreamFailure(0, maskSecrets(`the channel's WebSocket call failed: ${(error as Error).message}`, key), true)
  }
}

/** Any error of an attempt as an UpstreamFailure (keys masked); a client that went away is never retried. */
export function asUpstreamFailure(error: unknown, scope: AttemptScope, clientSignal: AbortSignal, key: string): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error
  if (scope.abort.signal.aborted && !clientSignal.aborted) return networkFailure(scope.abort.signal.reason)
  return new UpstreamFailure(0, maskSecrets((error as Error).message, key), !clientSignal.aborted)
}
