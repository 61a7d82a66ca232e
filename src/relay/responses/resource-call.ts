import { GatewayError, NotFoundError } from '../../errors'
import { tokenAllowsModel } from '../auth/model-allowed'
import { maskSecrets } from '../mask'
import { withHeaderOverride } from '../overrides/header-override'
import type { Channel, Routing } from '../routing'
import { keyFingerprint } from '../routing/affinity/session-affinity'
import { asUpstreamFailure, guardedFetch, openAttempt } from '../send'
import type { RelayPorts, VerifiedToken } from '../types'
import type { ResponseHome, ResponseRegistry } from './response-registry'
import { responsesTarget } from './response-url'

/** What the client does with a stored response: OpenAI's retrieve, delete, cancel and input item list. */
export type ResponseAction = 'retrieve' | 'delete' | 'cancel' | 'input_items'

export interface ResourceRequest extends VerifiedToken {
  action: ResponseAction
  responseId: string
  /** the client's query string (`?include[]=…&stream=true`, `?limit=20&after=…`), passed on */
  query: string
  requestId: string
  signal: AbortSignal
}

export interface ResourcePorts extends Pick<RelayPorts, 'options' | 'outbound' | 'ops'> {
  routing: Pick<Routing, 'channels' | 'keyOutOfRotation'>
  responses: ResponseRegistry
}

const METHODS: Record<ResponseAction, string> = { retrieve: 'GET', delete: 'DELETE', cancel: 'POST', input_items: 'GET' }
const SUFFIXES: Record<ResponseAction, (id: string) => string> = {
  retrieve: (id) => `/${id}`,
  delete: (id) => `/${id}`,
  cancel: (id) => `/${id}/cancel`,
  input_items: (id) => `/${id}/input_items`,
}

/**
 * A call on a stored response, sent to the channel and key that created it (the only upstream account that holds
 * it) and answered as that upstream answers. Not billed: OpenAI charges nothing for these. An id the gateway does
 * not know, or that another user's key made, is not found: it is never tried on other accounts.
 */
export async function callStoredResponse(ports: ResourcePorts, request: ResourceRequest): Promise<Response> {
  const home = await ports.responses.find(request.responseId)
  if (!home || home.userId !== request.user.id) throw responseNotFound(request.responseId)
  if (!tokenAllowsModel(request.token, home.model)) throw new NotFoundError(`model not found: "${home.model}" (this token may not use it)`, 'model_not_found')
  const channel = ports.routing.channels.get(home.channelId)
  if (!channel) throw responseNotFound(request.responseId)
  if (channel.status !== 1) throw new GatewayError(503, 'upstream_unavailable', `the channel that holds response '${request.responseId}' is disabled`)
  const key = homeKey(ports, channel, home)
  const target = responsesTarget(channel, home.model, key, SUFFIXES[request.action](request.responseId), request.query)
  if (!target) throw responseNotFound(request.responseId)
  const { 'content-type': _json, ...headers } = target.headers
  const sent = channel.overrides.headers ? withHeaderOverride(headers, channel.overrides.headers, { key, requestId: request.requestId }) : headers
  const scope = openAttempt(ports, request.signal)
  try {
    const response = await guardedFetch(ports, target.url, { method: METHODS[request.action], headers: sent, proxy: channel.overrides.proxy }, scope, request.signal, key)
    if (response.ok && request.action === 'delete') ports.responses.forget(request.responseId)
    return await answerOf(response, key, request, scope)
  } catch (error) {
    scope.close()
    const failure = asUpstreamFailure(error, scope, request.signal, key)
    throw new GatewayError(502, 'upstream_error', `the upstream holding response '${request.responseId}' could not be reached: ${failure.message}`)
  }
}

/** The key that created the response, when the channel still has it in rotation; else the channel's first in rotation. */
function homeKey(ports: ResourcePorts, channel: Channel, home: ResponseHome): string {
  const live = channel.keys.filter((key) => !ports.routing.keyOutOfRotation(channel.id, key))
  return live.find((key) => keyFingerprint(key) === home.keyFp) ?? live[0] ?? channel.keys[0] ?? ''
}

/** The upstream's answer as it came (its status, its JSON or a retrieve's event stream), the key masked out of a body. */
async function answerOf(response: Response, key: string, request: ResourceRequest, scope: { close(): void }): Promise<Response> {
  const type = response.headers.get('content-type') ?? 'application/json'
  const headers = { 'content-type': type, 'x-request-id': request.requestId }
  if (type.startsWith('text/event-stream') && response.body) {
    request.signal.addEventListener('abort', () => scope.close(), { once: true }) // a client gone mid-stream ends the attempt too
    const closing = new TransformStream<Uint8Array, Uint8Array>({ flush: () => scope.close() })
    return new Response(response.body.pipeThrough(closing), { status: response.status, headers })
  }
  const text = await response.text()
  scope.close()
  return new Response(maskSecrets(text, key), { status: response.status, headers })
}

function responseNotFound(id: string): GatewayError {
  return new NotFoundError(`Response with id '${id}' not found.`, 'response_not_found')
}
