import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import type { ProtocolId } from '../../protocols/types'
import { idCarriedByResponse } from '../../plugins/request-context'
import { ANTHROPIC_KEY_SOURCES, GEMINI_KEY_SOURCES, type KeySource } from '../../relay/auth'
import { apiKeyAuth } from './api-key-auth'
import { relayChat } from '../../relay/chat/job'
import type { RelayHooks } from '../../relay/types'
import { protocolFor } from '../../relay/protocol-registry'
import { countRequestTokens } from '../../relay/meter/tokenize'
import { NotFoundError } from '../../errors'
import { modelList, modelObject, modelsForToken } from '../../relay/models'
import { assertJsonBody, chatJsonParser, parseRawJson, type RawBodyContext } from './raw-body'
import { relayInputOf, type RelayRequestContext } from './relay-input'
import { wireCheck } from './wire-check'
import { geminiModelList, geminiModelObject, isGeminiCaller } from './gemini'

const AnthropicHeaders = t.Object(
  { 'anthropic-version': t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', error: 'the anthropic-version header is required, as a date YYYY-MM-DD' }) },
  { additionalProperties: true },
)
const checkAnthropicHeaders = wireCheck('headers', AnthropicHeaders)

/** The one header Anthropic routes require, checked without copying every header into an object. */
function anthropicVersion(request: Request): void {
  const version = request.headers.get('anthropic-version')
  checkAnthropicHeaders(version === null ? {} : { 'anthropic-version': version })
}

const CountTokensBody = t.Object({ model: t.String(), messages: t.Array(t.Any()) }, { additionalProperties: true })
const checkCountTokensBody = wireCheck('body', CountTokensBody)

/** Key carriers per route: Bearer everywhere; x-api-key where Anthropic clients call; Gemini's on /v1/models (its SDK lists there). */
function keySources(path: string): readonly KeySource[] {
  if (path.startsWith('/v1/models')) return MODEL_LIST_KEY_SOURCES
  return path.startsWith('/v1/messages') ? ANTHROPIC_KEY_SOURCES : []
}
const MODEL_LIST_KEY_SOURCES: readonly KeySource[] = [...ANTHROPIC_KEY_SOURCES, ...GEMINI_KEY_SOURCES]

/**
 * The public relay surface. The key is checked before the body is read and a refusal thrown in `derive`, before
 * body validation (api-key-auth.ts), so a request without a valid key is told so first, its body unread. Handlers
 * only translate HTTP to the pipeline's input.
 */
export function relayModule(deps: AppDeps, hooks: RelayHooks) {
  // headers, then body, as declared schemas would be checked; both after the key (derive) and the JSON check (transform)
  const generate = (protocol: ProtocolId, checkHeaders?: (request: Request) => void) => {
    const checkBody = wireCheck('body', protocolFor(protocol).requestSchema)
    // destructured on purpose: Elysia reads handler parameters to decide what to parse
    return ({ body, request, caller, clientIp, set, rawBody, arrival }: RelayRequestContext & { set: { headers: Record<string, unknown> } }) => {
      checkHeaders?.(request)
      checkBody(body)
      idCarriedByResponse(set)
      return relayChat(deps, relayInputOf(protocol, { body, request, caller, clientIp, rawBody, arrival }), hooks)
    }
  }

  return new Elysia({ name: 'relay' })
    .use(apiKeyAuth(deps, 'relay', keySources))
    // after the key (so a refusal is logged against it), before schema validation: a body that is not a JSON object is named as such
    .onTransform(({ request, rawBody }: RawBodyContext) => {
      if (request.method === 'POST') assertJsonBody(rawBody)
    })
    .post('/v1/chat/completions', generate('openai-chat'), { parse: chatJsonParser('openai-chat') })
    .post('/v1/responses', generate('openai-responses'), { parse: chatJsonParser('openai-responses') })
    .post('/v1/messages', generate('anthropic', anthropicVersion), { parse: chatJsonParser('anthropic') })
    .post(
      '/v1/messages/count_tokens',
      ({ body, request }) => {
        anthropicVersion(request)
        checkCountTokensBody(body)
        const messages = { max_tokens: 1, ...(body as Record<string, unknown>) }
        return { input_tokens: countRequestTokens(protocolFor('anthropic').decodeRequest(messages).value) }
      },
      { parse: parseRawJson },
    )
    .get('/v1/models', ({ caller, request }) => {
      const models = modelsForToken(deps.routing.channels.all(), caller.token, caller.user)
      return isGeminiCaller(request) ? geminiModelList(models) : modelList(models)
    })
    .get('/v1/models/:model', ({ caller, params, request }) => {
      const gemini = isGeminiCaller(request)
      const id = gemini ? params.model.replace(/^models\//, '') : params.model
      const model = modelsForToken(deps.routing.channels.all(), caller.token, caller.user).find((m) => m.id === id)
      if (!model) throw new NotFoundError(`model not found: "${params.model}"`, 'model_not_found')
      return gemini ? geminiModelObject(model) : modelObject(model)
    }, { params: t.Object({ model: t.String() }) })
}

/** Clients probe the root before their first request (Claude Code sends HEAD /); GET / is the console's. */
export function rootProbeModule() {
  return new Elysia({ name: 'root-probe' }).head('/', () => new Response(null, { status: 200 }))
}
