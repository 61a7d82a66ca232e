import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { NotFoundError } from '../../errors'
import type { FailedRequest } from '../../plugins/error-routes'
import { idCarriedByResponse, type ArrivedContext } from '../../plugins/request-context'
import { apiKeyAuth } from './api-key-auth'
import { GEMINI_KEY_SOURCES, type VerifiedToken } from '../../relay/auth'
import { modelsForToken, type ListedModel } from '../../relay/models'
import { relayChat } from '../../relay/chat/job'
import type { RelayHooks } from '../../relay/types'
import { protocolFor } from '../../relay/protocol-registry'
import { assertJsonBody, chatBodyReader, readWholeBody, type RawBodyContext } from './raw-body'
import { relayInputOf } from './relay-input'
import { wireCheck } from './wire-check'
import { geminiCountTokens, geminiEmbed } from './gemini-actions'
import { looksLikeEmbeddingModel } from '../../operations/embeddings/models'

/** The methods served after the colon of `models/{model}:…`. */
const ACTIONS = ['generateContent', 'streamGenerateContent', 'embedContent', 'batchEmbedContents', 'countTokens']

/** The methods a Gemini client may call on a listed model: an embedding model embeds, the others generate; both count. */
const CHAT_METHODS = ['generateContent', 'streamGenerateContent', 'countTokens']
const EMBEDDING_METHODS = ['embedContent', 'batchEmbedContents', 'countTokens']

export { isGeminiCaller } from '../../protocols/gemini/routes'

/** `gemini-2.5-flash:streamGenerateContent` → model and action; the model may hold dots, dashes and colons. */
function splitModelAction(param: string): { model: string; action: string } {
  const decoded = safeDecode(param).replace(/^models\//, '')
  const at = decoded.lastIndexOf(':')
  if (at <= 0) throw new NotFoundError(`no such route: expected models/{model}:{method} (${ACTIONS.join(', ')}), got "${decoded}"`, 'not_found')
  return { model: decoded.slice(0, at), action: decoded.slice(at + 1) }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** One model in the shape `GET /v1beta/models` returns. */
export function geminiModelObject(model: ListedModel) {
  return {
    name: `models/${model.id}`,
    baseModelId: model.id,
    version: '001',
    displayName: model.id,
    description: `${model.id} (served by Tollgate, owned by ${model.ownedBy})`,
    supportedGenerationMethods: looksLikeEmbeddingModel(model.id) ? EMBEDDING_METHODS : CHAT_METHODS,
  }
}

/** `GET /v1beta/models` (one page: no nextPageToken). */
export function geminiModelList(models: ListedModel[]) {
  return { models: models.map(geminiModelObject) }
}

/**
 * The Gemini ingress: `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent` (SSE with
 * `alt=sse`, else one JSON array streamed element by element, as Google does), `:embedContent` and
 * `:batchEmbedContents` (the embeddings operation), `:countTokens` (counted here), the same under `/v1/models/`
 * for clients configured with api version v1, and the model list. Keys come as Bearer, `x-goog-api-key` or
 * `?key=`. The model and the stream flag live in the path; the pipeline takes them as `pathModel`/`pathStream`.
 */
export function geminiRelayModule(deps: AppDeps, hooks: RelayHooks) {
  const checkBody = wireCheck('body', protocolFor('gemini').requestSchema)
  const generate = async ({ body, request, params, caller, clientIp, set, rawBody, arrival }: GenerateContext) => {
    const { model, action } = splitModelAction(params.model)
    if (!ACTIONS.includes(action)) throw new NotFoundError(`the method "${action}" is not served; use ${ACTIONS.join(', ')}`, 'not_found')
    if (action === 'countTokens') return geminiCountTokens(body, checkBody)
    idCarriedByResponse(set)
    if (action === 'embedContent' || action === 'batchEmbedContents') {
      return geminiEmbed(deps, hooks, { body, request, caller, clientIp, rawBody, arrival }, model, action === 'batchEmbedContents')
    }
    checkBody(body)
    const stream = action === 'streamGenerateContent'
    const input = relayInputOf('gemini', { body, request, caller, clientIp, rawBody, arrival })
    const response = await relayChat(deps, { ...input, pathModel: model, pathStream: stream }, hooks)
    return stream ? protocolFor('gemini').streamFraming!(response, request) : response
  }

  const list = ({ caller }: { caller: VerifiedToken }) => geminiModelList(modelsForToken(deps.routing.channels.all(), caller.token, caller.user))
  const get = ({ caller, params }: { caller: VerifiedToken; params: { model: string } }) => {
    const id = safeDecode(params.model).replace(/^models\//, '')
    const model = modelsForToken(deps.routing.channels.all(), caller.token, caller.user).find((m) => m.id === id)
    if (!model) throw new NotFoundError(`model not found: "models/${id}"`, 'model_not_found')
    return geminiModelObject(model)
  }
  const options = { parse: geminiParser(), params: t.Object({ model: t.String() }) }

  return new Elysia({ name: 'relay-gemini' })
    .use(apiKeyAuth(deps, 'gemini', () => GEMINI_KEY_SOURCES))
    .onTransform(({ request, rawBody }: RawBodyContext) => {
      if (request.method === 'POST') assertJsonBody(rawBody)
    })
    .post('/v1beta/models/:model', generate, options)
    .post('/v1/models/:model', generate, options)
    .get('/v1beta/models', list)
    .get('/v1beta/models/:model', get, { params: t.Object({ model: t.String() }) })
}

/**
 * generateContent and streamGenerateContent take the chat routes' parser: a large body (a Gemini CLI turn grown with
 * file reads) is scanned, not parsed, before dispatch (relay/body/request-body.ts), passed through as its bytes or converted
 * with its long strings spliced; embeddings and countTokens read their bodies whole.
 */
function geminiParser() {
  const readChat = chatBodyReader('gemini')
  // read by property: Elysia reads a hook's source, and a context passed on whole makes every request parse its cookies
  return (parseContext: RawBodyContext): Promise<unknown> => {
    const read = GENERATE.has(actionOf(lastSegment(parseContext.request.url))) ? readChat : readWholeBody
    return read(parseContext.request).then((entry) => (parseContext.rawBody = entry).view)
  }
}

const GENERATE = new Set(['generateContent', 'streamGenerateContent'])

/** The URL's last path segment, as `new URL(url).pathname` would end (read without parsing the URL on every request). */
function lastSegment(url: string): string {
  const query = url.search(/[?#]/)
  const end = query < 0 ? url.length : query
  return url.slice(url.lastIndexOf('/', end - 1) + 1, end)
}

/** The method a `models/{model}:{method}` path segment names ('' when none: the handler answers that 404). */
function actionOf(segment: string): string {
  try {
    return splitModelAction(segment).action
  } catch {
    return ''
  }
}

/** The model and stream flag a Gemini request's path names (the body carries neither). */
export function pathModel(failed: FailedRequest): { model: string; stream: boolean } {
  try {
    const { model, action } = splitModelAction(failed.params?.model ?? '')
    return { model, stream: action === 'streamGenerateContent' }
  } catch {
    return { model: '', stream: false }
  }
}

interface GenerateContext extends RawBodyContext, ArrivedContext {
  body: unknown
  params: { model: string }
  caller: VerifiedToken
  clientIp: string
  set: { headers: Record<string, unknown> }
}
