import type { AppDeps } from '../../deps'
import { BadRequestError } from '../../errors'
import { geminiEmbeddingsOperation } from '../../operations/embeddings'
import { objectBody } from '../../operations/fields'
import { relayOperation, type OperationInput } from '../../operations/job'
import type { RelayHooks } from '../../relay/types'
import { protocolFor } from '../../relay/protocol-registry'
import { countRequestTokens } from '../../relay/meter/tokenize'
import { rawBodyOf } from './raw-body'
import type { RelayRequestContext } from './relay-input'

/**
 * `models/{model}:embedContent` and `:batchEmbedContents`: the embeddings operation with a Gemini body, routed to
 * any channel that serves the model's embeddings (OpenAI, Gemini …), billed as `/v1/embeddings` is, answered in
 * Gemini's shape (`{embedding: {values}}`, `{embeddings: [{values}]}`).
 */
export function geminiEmbed(deps: AppDeps, hooks: RelayHooks, ctx: RelayRequestContext, model: string, batch: boolean): Promise<Response> {
  const { body, request, caller, clientIp, rawBody, arrival } = ctx
  const input: OperationInput = {
    protocol: batch ? 'gemini:batchEmbedContents' : 'gemini:embedContent',
    body,
    bytes: Buffer.byteLength(rawBodyOf(rawBody)),
    headers: request.headers,
    token: caller.token,
    user: caller.user,
    requestId: arrival?.id ?? '',
    receivedAt: arrival?.at,
    clientIp,
    signal: request.signal,
  }
  return relayOperation(deps, geminiEmbeddingsOperation(model, batch), input, hooks)
}

/**
 * `models/{model}:countTokens` with `{contents}` or `{generateContentRequest}` → `{totalTokens}`, counted here with
 * the tokenizer `/v1/messages/count_tokens` uses: no upstream call, no charge. `checkBody` is the Gemini request
 * schema's wire check, so a malformed content is a 400 naming its field.
 */
export function geminiCountTokens(raw: unknown, checkBody: (body: unknown) => void): { totalTokens: number } {
  const body = objectBody(raw)
  const inner = body.generateContentRequest
  if (inner !== undefined && body.contents !== undefined) {
    throw new BadRequestError('send contents or generateContentRequest, not both', 'generateContentRequest')
  }
  if (inner !== undefined && (typeof inner !== 'object' || inner === null || Array.isArray(inner))) {
    throw new BadRequestError('generateContentRequest must be an object', 'generateContentRequest')
  }
  const request = inner === undefined ? { contents: body.contents } : (inner as Record<string, unknown>)
  if (!Array.isArray(request.contents)) {
    throw new BadRequestError('contents is required: an array of contents', inner === undefined ? 'contents' : 'generateContentRequest.contents')
  }
  checkBody(request)
  return { totalTokens: countRequestTokens(protocolFor('gemini').decodeRequest(request, { checked: true }).value) }
}
