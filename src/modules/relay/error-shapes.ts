import type { AppDeps } from '../../deps'
import type { ErrorView } from '../../plugins/describe-error'
import type { ErrorRouter } from '../../plugins/error-routes'
import type { Protocol } from '../../protocols/types'
import { protocolFor } from '../../relay/protocol-registry'
import { isGeminiPath, pathModel } from './gemini'
import { bodyModel, refusalLogger } from './refusals'

/**
 * Relay errors in each client's own shape: Gemini on its ingress, Anthropic on /v1/messages (and on /v1/models
 * when the caller speaks Anthropic), OpenAI on the other /v1 routes and on the playground's /pg routes. Every
 * body carries the request id, and a refused generation request gets its log row (`refusals.ts`).
 */
export function registerRelayErrors(router: ErrorRouter, deps: Pick<AppDeps, 'metering'>): void {
  const anthropic = protocolFor('anthropic')
  const openai = protocolFor('openai-chat')
  router.register(isGeminiPath, renderWith(protocolFor('gemini')), refusalLogger(deps, pathModel))
  router.register(
    (path, request) => path.startsWith('/v1/messages') || (path.startsWith('/v1/models') && request.headers.has('anthropic-version')),
    renderWith(anthropic),
    refusalLogger(deps, bodyModel),
  )
  // /pg/: the console's playground relay (modules/playground), OpenAI Chat Completions like /v1/chat/completions
  router.register((path) => path.startsWith('/v1/') || path.startsWith('/pg/'), renderWith(openai), refusalLogger(deps, bodyModel))
}

function renderWith(protocol: Protocol) {
  return (view: ErrorView, requestId: string | undefined) =>
    Response.json(
      { ...protocol.renderError({ status: view.status, code: view.code, message: view.message, param: view.param }), request_id: requestId },
      { status: view.status, headers: view.headers },
    )
}
