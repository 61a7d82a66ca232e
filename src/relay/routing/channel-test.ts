import { modelListRequest } from '../../providers/upstream'
import { ModelListError } from '../../providers/model-list-call'
import { upstreamErrorMessage } from '../../providers/upstream-error'
import { probeCall } from './probe-call'
import type { Channel } from './channel'
import { mapModel } from './model-mapping'
import { failureCode, fetchFailure, shownUrl, type UpstreamFailureCode } from './upstream-failure'
import { viaChannel } from '../overrides/attempt-overrides'
import { probeOperation, testOperationFor } from './operation-test'
import { probeOverSocket } from './socket-test'
import type { OutboundWebSocket } from '../../outbound/websocket'

export interface ChannelTestResult {
  ok: boolean
  /** Wall time of the upstream call in ms. */
  timeMs: number
  /** Upstream HTTP status (0 when no answer: network error or timeout). */
  status: number
  /** '' on success, else the upstream's error message. */
  message: string
  /** The model asked for (before mapping) and the one sent upstream. */
  model: string
  upstreamModel: string
  /** why it failed, as a stable code the console words (upstream-failure.ts); absent on success */
  code?: UpstreamFailureCode
  /** the last request sent upstream: method and URL without its query (a key may ride in it) */
  request?: { method: string; url: string }
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>

const TEST_TIMEOUT_MS = 30_000

/** Which model a test uses: the one asked for, else the channel's test model, its first model, the provider's. */
function testModelOf(channel: Channel, requested?: string): string {
  return requested?.trim() || channel.testModel || channel.models[0] || channel.provider.testModel
}

/**
 * Send the smallest real request through the channel's provider with one of its keys (preferred protocol,
 * a few output tokens; an embeddings call for an embedding model) and report success, time and the upstream
 * error message. Never throws.
 * `key-tests.ts` runs it once per key.
 */
export async function testKey(channel: Channel, key: string, requestedModel: string | undefined, upstream: Fetch, dial?: OutboundWebSocket): Promise<ChannelTestResult> {
  let request: ChannelTestResult['request']
  const fetchImpl: Fetch = (input, init) => {
    request = { method: init?.method ?? 'GET', url: shownUrl(input) }
    return upstream(input, viaChannel(channel, key, init))
  }
  const model = testModelOf(channel, requestedModel)
  const upstreamModel = mapModel(channel.modelMapping, model)
  const protocol = channel.provider.protocols[0]
  const started = performance.now()
  const result = (ok: boolean, status: number, message: string, code = ok ? undefined : failureCode(status)): ChannelTestResult => ({
    ok,
    timeMs: Math.round(performance.now() - started),
    status,
    message,
    model,
    upstreamModel,
    ...(code ? { code } : {}),
    ...(request ? { request } : {}),
  })
  const thrown = (error: unknown) => {
    const failure = fetchFailure(error, request?.url, TEST_TIMEOUT_MS)
    return result(false, 0, failure.message, failure.code)
  }
  // an embedding model (or a provider with no chat, Jina) is tested with the operation it serves, not a chat
  const operation = testOperationFor(channel.provider, [model, upstreamModel])
  if (operation) {
    try {
      const probe = await probeOperation(operation, channel, key, model, upstreamModel, fetchImpl, AbortSignal.timeout(TEST_TIMEOUT_MS))
      return result(probe.ok, probe.status, hideKeys(probe.message, channel.keys))
    } catch (error) {
      return thrown(error)
    }
  }
  // nothing this gateway relays to test: say so instead of sending a fake chat
  if (!protocol) return result(false, 0, channel.provider.note ?? `${channel.provider.name} speaks no protocol Tollgate relays`, 'not_testable')
  const socketCall = channel.provider.socketCall
  if (socketCall) {
    if (!dial) return result(false, 0, `${channel.provider.name} is reached over a WebSocket, which this test cannot dial`, 'not_testable')
    try {
      const probe = await probeOverSocket(channel, socketCall, key, upstreamModel, dial, TEST_TIMEOUT_MS)
      return result(probe.ok, probe.status, hideKeys(probe.message, channel.keys))
    } catch (error) {
      return thrown(error)
    }
  }
  try {
    const send = async () => {
      const target = await probeCall(channel, upstreamModel, model, key, fetchImpl)
      const response = await fetchImpl(target.url, { method: 'POST', headers: target.headers, body: target.body, signal: AbortSignal.timeout(TEST_TIMEOUT_MS) })
      return { target, response }
    }
    let { target, response } = await send()
    // a refused cached token (Vertex) is dropped: once more with a new one, so the test says what the key can do
    if (!response.ok && target.rejected?.(response.status)) {
      void response.body?.cancel().catch(() => {})
      ;({ target, response } = await send())
    }
    const text = await response.text()
    if (!response.ok) return result(false, response.status, hideKeys(upstreamErrorMessage(response.status, text), channel.keys))
    // an upstream that answers only as a stream (Coze, Codex): an event stream is its answer
    if (target.streamsOnly && /^(event|data):/m.test(text)) return result(true, response.status, '')
    try {
      JSON.parse(text)
    } catch {
      return result(false, response.status, 'upstream answered 2xx but not with JSON', 'upstream_bad_answer')
    }
    return result(true, response.status, '')
  } catch (error) {
    return thrown(error)
  }
}

/** The upstream's own model list through the provider's list endpoint. Throws with the upstream message. */
export async function fetchUpstreamModels(channel: Channel, upstream: Fetch): Promise<string[]> {
  const fetchImpl: Fetch = (input, init) => upstream(input, viaChannel(channel, channel.keys[0] ?? '', init))
  const list = channel.provider.modelList?.list
  if (list) {
    // connector providers list with their own signed or token-authenticated calls
    try {
      return [...new Set(await list({ key: channel.keys[0] ?? '', baseUrl: channel.baseUrl, other: channel.other, fetch: fetchImpl }))]
    } catch (error) {
      const status = error instanceof ModelListError ? error.status : 0
      if (status) throw new UpstreamCallError(status, hideKeys((error as Error).message, channel.keys), failureCode(status))
      const failure = fetchFailure(error, channel.baseUrl, TEST_TIMEOUT_MS)
      throw new UpstreamCallError(0, hideKeys(failure.message, channel.keys), failure.code)
    }
  }
  const target = modelListRequest(channel.provider, channel.baseUrl, channel.keys[0] ?? '', { other: channel.other })
  let response: Response
  let text: string
  try {
    response = await fetchImpl(target.url, { headers: target.headers, signal: AbortSignal.timeout(TEST_TIMEOUT_MS) })
    text = await response.text()
  } catch (error) {
    const failure = fetchFailure(error, target.url, TEST_TIMEOUT_MS)
    throw new UpstreamCallError(0, failure.message, failure.code, { method: 'GET', url: shownUrl(target.url) })
  }
  const request = { method: 'GET', url: shownUrl(target.url) }
  if (!response.ok) throw new UpstreamCallError(response.status, hideKeys(upstreamErrorMessage(response.status, text), channel.keys), failureCode(response.status), request)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new UpstreamCallError(response.status, 'the model list is not JSON', 'upstream_bad_answer', request)
  }
  return [...new Set(channel.provider.modelList!.parse(body))]
}

export class UpstreamCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: UpstreamFailureCode,
    readonly request?: { method: string; url: string },
  ) {
    super(message)
  }
}

/** Upstreams sometimes echo the key in their error text; never pass it on. */
function hideKeys(message: string, keys: readonly string[]): string {
  let out = message
  for (const key of keys) if (key.length >= 6) out = out.replaceAll(key, `${key.slice(0, 3)}…`)
  return out
}
