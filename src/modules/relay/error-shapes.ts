import type { AppDeps } from '../../deps'
import type { ErrorView } from '../../plugins/describe-error'
import type { ErrorRouter } from '../../plugins/error-routes'
import type { Protocol, ProtocolId } from '../../protocols/types'
import { protocolFor } from '../../relay/protocol-registry'
import { pathModel } from './gemini'
import { bodyModel, refusalLogger } from './refusals'

/**
 * Relay errors in each client's own shape, where each protocol says its paths are (`errorsOn` in its folder): Gemini on its ingress, Anthropic on /v1/messages (and on /v1/models
 * when the caller speaks Anthropic), OpenAI on the other /v1 routes and on the playground's /pg routes. Every
 * body carries the request id, and a refused generation request gets its log row (`refusals.ts`).
 */
export function registerRelayErrors(router: ErrorRouter, deps: Pick<AppDeps, 'metering'>): void {
  for (const id of ERROR_ORDER) {
    const protocol = protocolFor(id)
    if (protocol.errorsOn) router.register(protocol.errorsOn, renderWith(protocol), refusalLogger(deps, id === 'gemini' ? pathModel : bodyModel))
  }
}

/** Most specific first: Gemini's ingress, then Anthropic's routes, then OpenAI's shape for every other relay path. */
const ERROR_ORDER: readonly ProtocolId[] = ['gemini', 'anthropic', 'openai-chat']

function renderWith(protocol: Protocol) {
  return (view: ErrorView, requestId: string | undefined) =>
    Response.json(
      { ...protocol.renderError({ status: view.status, code: view.code, message: view.message, param: view.param }), request_id: requestId },
      { status: view.status, headers: view.headers },
    )
}
