import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { ForbiddenError } from '../../errors'
import { clientIpOf, idCarriedByResponse } from '../../plugins/request-context'
import { findSessionUser, readSessionClaims, sessionCookieOf, sessionPlugin } from '../../plugins/session'
import { relayChat } from '../../relay/chat/job'
import type { RelayHooks } from '../../relay/types'
import { protocolFor } from '../../relay/protocol-registry'
import { playgroundCaller } from '../../services/playground/caller'
import { assertJsonBody, parseRawJson, type RawBodyContext } from '../relay/raw-body'
import { relayInputOf, type RelayRequestContext } from '../relay/relay-input'
import { wireCheck } from '../relay/wire-check'

/**
 * new-api's playground relay: `POST /pg/chat/completions`, an OpenAI Chat Completions request (stream or
 * not) sent by the web console with the management session (cookie or access token) instead of an API key.
 * It goes through the same pipeline as /v1/chat/completions, charged to the logged-in user through an
 * in-memory token (`services/playground/caller.ts`) and logged under the token name "playground".
 * Errors come in the OpenAI shape (`/pg/` is registered with the relay error shapes, refusals logged).
 *
 * Like the relay routes, the body is checked by hand against the protocol's schema after authentication
 * (`wire-check.ts`): a declared schema would deep-copy every body through Elysia's normalizer.
 */
export function playgroundModule(deps: AppDeps, hooks: RelayHooks) {
  const checkBody = wireCheck('body', protocolFor('openai-chat').requestSchema)
  const disabled = () => new ForbiddenError('this user is disabled', 'user_disabled')

  return new Elysia({ name: 'playground' })
    .use(sessionPlugin(deps))
    // before body validation, as every session route: an anonymous caller learns nothing about the body
    // the cookie read from the request, not Elysia's `cookie`: a derive naming it makes every route of the app parse cookies
    .derive(async ({ sessionJwt, request, server }) => {
      const claims = await readSessionClaims(sessionJwt, sessionCookieOf(request.headers))
      const user = await findSessionUser(deps, request.headers, claims, disabled)
      return { clientIp: clientIpOf(request, server, deps.config.trustProxy), caller: playgroundCaller(user) }
    })
    .onTransform(({ request, rawBody }: RawBodyContext) => {
      if (request.method === 'POST') assertJsonBody(rawBody)
    })
    .post(
      '/pg/chat/completions',
      // destructured on purpose: Elysia reads handler parameters to decide what to parse
      ({ body, request, caller, clientIp, set, rawBody, arrival }: RelayRequestContext & { set: { headers: Record<string, unknown> } }) => {
        checkBody(body)
        idCarriedByResponse(set)
        return relayChat(deps, relayInputOf('openai-chat', { body, request, caller, clientIp, rawBody, arrival }), hooks)
      },
      { parse: parseRawJson },
    )
}
