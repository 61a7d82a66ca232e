import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { OPERATIONS } from '../../operations'
import type { Operation, OperationRequest } from '../../operations/types'
import { idCarriedByResponse, type ArrivedContext } from '../../plugins/request-context'
import type { KeySource } from '../../relay/auth'
import { relayOperation, type OperationInput } from '../../operations/job'
import type { RelayHooks } from '../../relay/types'
import type { VerifiedToken } from '../../relay/auth'
import { apiKeyAuth } from './api-key-auth'
import { assertMultipartBody, multipartBytes, parseMultipart, type MultipartContext } from './multipart-body'
import { assertJsonBody, parseRawJson, rawBodyOf, type RawBodyContext } from './raw-body'
import { relayCallOf } from './relay-input'

const BEARER_ONLY: readonly KeySource[] = []

interface OperationContext extends RawBodyContext, MultipartContext, ArrivedContext {
  body: unknown
  request: Request
  caller: VerifiedToken
  clientIp: string
  set: { headers: Record<string, unknown> }
}

/**
 * The model APIs besides chat, one route per operation (`/v1/embeddings`, `/v1/rerank`, `/v1/images/…`,
 * `/v1/audio/…`, `/v1/moderations`, `/v1/completions`), each in OpenAI's wire shape and error body. The key is
 * checked first (the shared auth plugin), then the body; the operation's pipeline does the rest.
 */
export function operationsModule(deps: AppDeps, hooks: RelayHooks) {
  const app = new Elysia({ name: 'relay-operations' })
    .use(apiKeyAuth(deps, 'operations', () => BEARER_ONLY))
    .onTransform(({ request, rawBody, multipart }: RawBodyContext & MultipartContext) => {
      if (request.method !== 'POST') return
      if (isMultipart(request)) assertMultipartBody(multipart)
      else assertJsonBody(rawBody)
    })
  for (const op of OPERATIONS) {
    for (const path of [op.path, ...(op.aliases ?? [])]) app.post(path, handler(deps, op, hooks), { parse: op.body === 'json' ? parseRawJson : parseMultipart })
  }
  return app
}

function isMultipart(request: Request): boolean {
  return OPERATIONS.some((op) => op.body === 'multipart' && new URL(request.url).pathname === op.path)
}

function handler(deps: AppDeps, op: Operation<OperationRequest>, hooks: RelayHooks) {
  // destructured on purpose: Elysia reads handler parameters to decide what to parse
  return ({ body, request, caller, clientIp, set, rawBody, multipart, arrival }: OperationContext) => {
    idCarriedByResponse(set)
    const bytes = op.body === 'json' ? Buffer.byteLength(rawBodyOf(rawBody)) : multipartBytes(multipart)
    const input: OperationInput = { ...relayCallOf(op.path, { request, caller, clientIp, arrival }), body, bytes }
    return relayOperation(deps, op, input, hooks)
  }
}
