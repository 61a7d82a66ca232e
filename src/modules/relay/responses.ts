import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { idCarriedByResponse, type ArrivedContext } from '../../plugins/request-context'
import type { KeySource, VerifiedToken } from '../../relay/auth'
import { COMPACT_PATH, relayCompact } from '../../relay/responses/compact-job'
import { callStoredResponse, type ResponseAction } from '../../relay/responses/resource-call'
import type { RelayHooks } from '../../relay/types'
import { apiKeyAuth } from './api-key-auth'
import { assertJsonBody, parseRawJson, type RawBodyContext } from './raw-body'
import { relayCallOf } from './relay-input'

const BEARER_ONLY: readonly KeySource[] = []
const ResponseId = t.Object({ id: t.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$', error: 'the response id is not valid' }) })

interface ResourceContext extends ArrivedContext {
  request: Request
  caller: VerifiedToken
  params: { id: string }
  set: { headers: Record<string, unknown> }
}

interface CompactContext extends ArrivedContext {
  body: unknown
  request: Request
  caller: VerifiedToken
  clientIp: string
  set: { headers: Record<string, unknown> }
}

/**
 * The Responses API besides create (which is a chat route): compaction, billed as a job of the engine, and the
 * calls on a stored response (retrieve, delete, cancel, input items), sent to the channel and key that created it
 * (relay/responses, docs/routing.md). OpenAI's paths, bodies and error shape.
 */
export function responsesModule(deps: AppDeps, hooks: RelayHooks) {
  const resource = (action: ResponseAction) => ({ request, caller, params, set, arrival }: ResourceContext) => {
    idCarriedByResponse(set)
    const query = new URL(request.url).search
    return callStoredResponse(deps, { action, responseId: params.id, query, ...caller, requestId: arrival?.id ?? '', signal: request.signal })
  }
  return new Elysia({ name: 'relay-responses' })
    .use(apiKeyAuth(deps, 'responses', () => BEARER_ONLY))
    .onTransform(({ request, rawBody }: RawBodyContext) => {
      if (request.method === 'POST' && new URL(request.url).pathname === COMPACT_PATH) assertJsonBody(rawBody)
    })
    .post(
      COMPACT_PATH,
      ({ body, request, caller, clientIp, set, arrival }: CompactContext) => {
        idCarriedByResponse(set)
        return relayCompact(deps, { ...relayCallOf(COMPACT_PATH, { request, caller, clientIp, arrival }), body: body as Record<string, unknown> }, hooks)
      },
      { parse: parseRawJson },
    )
    .get('/v1/responses/:id', resource('retrieve'), { params: ResponseId })
    .delete('/v1/responses/:id', resource('delete'), { params: ResponseId })
    .post('/v1/responses/:id/cancel', resource('cancel'), { params: ResponseId })
    .get('/v1/responses/:id/input_items', resource('input_items'), { params: ResponseId })
}
