import type { ErrorRouter } from '../../plugins/error-routes'
import type { Protocol } from '../../protocols/types'
import { protocolFor } from '../../relay/protocol-registry'
import { isGeminiPath } from './gemini'

/**
 * Relay errors in each client's own shape: Anthropic on /v1/messages (and on /v1/models when the caller
 * speaks Anthropic), OpenAI on the other /v1 routes. Every body carries the request id.
 */
export function registerRelayErrorShapes(router: ErrorRouter): void {
  const anthropic = protocolFor('anthropic')
  const openai = protocolFor('openai-chat')
  router.register(isGeminiPath, renderWith(protocolFor('gemini')))
  router.register((path, request) => path.startsWith('/v1/messages') || (path.startsWith('/v1/models') && request.headers.has('anthropic-version')), renderWith(anthropic))
  router.register((path) => path.startsWith('/v1/'), renderWith(openai))
}

function renderWith(protocol: Protocol) {
  return (view: { status: number; code: string; message: string; param?: string; headers?: Record<string, string> }, requestId: string | undefined) =>
    Response.json(
      { ...protocol.renderError({ status: view.status, code: view.code, message: view.message, param: view.param }), request_id: requestId },
      { status: view.status, headers: view.headers },
    )
}
