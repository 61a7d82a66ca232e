/**
 * A fake Vertex AI endpoint: `/v1/projects/{project}/locations/{location}/publishers/{google|anthropic}/models/
 * {model}:{action}` on a free port (point a channel's base_url at `url`). It takes only `Authorization: Bearer`
 * tokens the fake token endpoint issued and that have not expired, for the project they were issued for, and
 * answers in each publisher's own wire format (the Gemini and Anthropic fakes' encoders, reused):
 * generateContent, streamGenerateContent (SSE with alt=sse, else one JSON array), countTokens, predict and
 * embedContent for embeddings, predict for Imagen (vertex-imagen.ts); rawPredict, streamRawPredict and count-tokens:rawPredict for Claude, where the body
 * must carry `anthropic_version: "vertex-2023-10-16"` and no `model`, and refused beta flags are a 400. GET
 * /v1beta1/publishers/{publisher}/models lists Model Garden's models, paged (vertex-models.ts).
 *
 *   const google = await startFakeGoogleToken()
 *   const vertex = await startFakeVertex({ tokens: google, locations: ['us-east5', 'global'] })
 *   vertex.setBehavior({ text: 'Hi' })
 *   … vertex.requests[0].location, .publisher, .model, .action …
 */
import { anthropic, countTokens as anthropicCount } from './anthropic'
import { gemini } from './gemini'
import type { FakeGoogleToken, IssuedToken } from './google-token'
import { json, makePlan } from './shared'
import type { Behavior, Ctx, RecordedRequest, Scenario } from './types'
import { embedContent, predictEmbeddings } from './vertex-embeddings'
import { predictImages } from './vertex-imagen'
import { DEFAULT_PUBLISHER_MODELS, LIST_PATH, publisherModels, type PublisherModel } from './vertex-models'

interface VertexRequest extends RecordedRequest {
  project?: string
  location?: string
  publisher?: 'google' | 'anthropic'
  /** the model segment of the path, as received (`claude-sonnet-4-5@20250929`, `count-tokens`) */
  vertexModel?: string
  /** the action after the colon, without the query */
  action?: string
  /** who the bearer token was issued to */
  token?: IssuedToken
}

export interface FakeVertexOptions {
  /** the token endpoint whose tokens are accepted */
  tokens: FakeGoogleToken
  /** locations that serve models (default any): a call to another is Vertex's 404 for a model it does not have */
  locations?: string[]
  behavior?: Behavior
  /** Model Garden's lists by publisher (GET /v1beta1/publishers/{publisher}/models); defaults in vertex-models.ts */
  publisherModels?: Record<string, PublisherModel[]>
}

export interface FakeVertex {
  url: string
  port: number
  requests: VertexRequest[]
  setBehavior(behavior: Behavior): void
  reset(): void
  stop(): Promise<void>
}

const PATH = /^\/v1(?:beta1)?\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/([^/]+)\/models\/([^/:]+):([A-Za-z]+)$/
const AUTH_HELP = 'Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.'
/** beta flags Vertex has answered "Unexpected value(s)" to (reports from Claude Code and gateway users) */
const REFUSED_BETAS = ['prompt-caching-scope-2026-01-05', 'advisor-tool-2026-03-01', 'redact-thinking-2026-02-12', 'files-api-2025-04-14', 'oauth-2025-04-20']
/** and on count-tokens, flags its messages take (LiteLLM PR 39597 shows both answers) */
const REFUSED_BETAS_COUNTING = ['tool-search-tool-2025-10-19', 'web-search-2025-03-05']
const GOOGLE_ACTIONS = new Set(['generateContent', 'streamGenerateContent', 'countTokens', 'predict', 'embedContent'])

const googleError = (code: number, status: string, message: string) => json({ error: { code, message, status } }, code)
const anthropicInvalid = (message: string) => anthropic.error(400, 'invalid_request_error', message, {})

export async function startFakeVertex(options: FakeVertexOptions): Promise<FakeVertex> {
  const requests: VertexRequest[] = []
  let behavior: Behavior = options.behavior ?? { text: 'Hello from the fake Vertex.' }
  let counter = 0

  function scenario(rec: VertexRequest): Scenario {
    const n = counter++
    if (typeof behavior === 'function') return behavior(rec, n)
    if (Array.isArray(behavior)) return behavior[Math.min(n, behavior.length - 1)] ?? {}
    return behavior
  }

  /** The Vertex-specific checks before a call reaches its publisher; a Response when refused. */
  function gate(rec: VertexRequest, m: RegExpExecArray): Response | undefined {
    const [, project, location, publisher, model, action] = m.map((x) => (x === undefined ? x : decodeURIComponent(x)))
    Object.assign(rec, { project, location, vertexModel: model, action, publisher: publisher === 'anthropic' || publisher === 'google' ? publisher : undefined })
    const bearer = /^Bearer (\S+)$/.exec(rec.headers['authorization'] ?? '')?.[1]
    if (!bearer) return googleError(401, 'UNAUTHENTICATED', `Request is missing required authentication credential. ${AUTH_HELP}`)
    rec.token = options.tokens.tokenInfo(bearer)
    if (!rec.token) return googleError(401, 'UNAUTHENTICATED', `Request had invalid authentication credentials. ${AUTH_HELP}`)
    const resource = `projects/${project}/locations/${location}/publishers/${publisher}/models/${model}`
    if (rec.token.projectId !== project)
      return googleError(403, 'PERMISSION_DENIED', `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/${resource}' (or it may not exist).`)
    const notFound = googleError(404, 'NOT_FOUND', `Publisher Model \`${resource}\` not found.`)
    if (options.locations && !options.locations.includes(location!)) return notFound
    const claude = model!.startsWith('claude') || model === 'count-tokens'
    if (rec.publisher === undefined || claude !== (rec.publisher === 'anthropic')) return notFound
    // Vertex names Claude versions with @: Anthropic's dated id is no Vertex model
    if (rec.publisher === 'anthropic' && /-\d{8}$/.test(model!)) return notFound
    const known = rec.publisher === 'google' ? GOOGLE_ACTIONS.has(action!) : action === 'rawPredict' || (action === 'streamRawPredict' && model !== 'count-tokens')
    if (!known) return googleError(400, 'INVALID_ARGUMENT', `Invalid method ${action} for ${resource}.`)
    return undefined
  }

  function google(rec: VertexRequest, s: Scenario): Response {
    if (rec.action === 'predict') return rec.vertexModel!.startsWith('imagen-') ? predictImages(rec) : predictEmbeddings(rec)
    if (rec.action === 'embedContent') return embedContent(rec)
    const invalid = gemini.validate(rec)
    if (invalid) return invalid
    if (rec.action === 'countTokens') return json({ totalTokens: s.usage?.input ?? Math.ceil(rec.body.length / 4), totalBillableCharacters: rec.body.length })
    if (s.error) return gemini.error(s.error.status, s.error.type, s.error.message, s.error.headers)
    const ctx: Ctx = { rec, body: rec.json, plan: makePlan(s, rec.vertexModel!), stream: rec.action === 'streamGenerateContent' }
    if (!ctx.stream) return json(gemini.body(ctx))
    const frames = gemini.frames(ctx)
    if (rec.query['alt'] === 'sse') return chunked(frames, 'text/event-stream', s.cutAfter, s.cutWhen)
    const items = frames.map((f) => f.slice('data: '.length).trim())
    return chunked(items.map((item, i) => (i === 0 ? '[' : ',\r\n') + item + (i === items.length - 1 ? ']' : '')), 'application/json; charset=UTF-8', s.cutAfter, s.cutWhen)
  }

  function claude(rec: VertexRequest, s: Scenario): Response {
    const body = rec.json
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return anthropicInvalid('There was an issue with your request body: expected a JSON object')
    const refusedHere = rec.vertexModel === 'count-tokens' ? [...REFUSED_BETAS, ...REFUSED_BETAS_COUNTING] : REFUSED_BETAS
    const refused = (rec.headers['anthropic-beta'] ?? '').split(',').map((f) => f.trim()).filter((f) => refusedHere.includes(f))
    if (refused.length > 0)
      return anthropicInvalid(`Unexpected value(s) ${refused.map((f) => `\`${f}\``).join(', ')} for the \`anthropic-beta\` header. Please consult our documentation at docs.anthropic.com or try again without the header.`)
    if (body.anthropic_version === undefined) return anthropicInvalid('anthropic_version: Field required')
    if (body.anthropic_version !== 'vertex-2023-10-16') return anthropicInvalid(`anthropic_version: Input should be 'vertex-2023-10-16'`)
    for (const field of ['diagnostics', ...(rec.vertexModel === 'count-tokens' ? [] : ['model'])])
      if (field in body) return anthropicInvalid(`${field}: Extra inputs are not permitted`)
    const model = rec.vertexModel === 'count-tokens' ? body.model : rec.vertexModel
    if (typeof model !== 'string' || model === '') return anthropicInvalid('model: Field required')
    // the Anthropic fake's own checks, on the request as Anthropic's API would have received it
    const { anthropic_version: _v, ...rest } = body
    const shadow: RecordedRequest = { ...rec, json: { ...rest, model }, headers: { ...rec.headers, 'anthropic-version': '2023-06-01' }, kind: rec.vertexModel === 'count-tokens' ? 'count_tokens' : 'generate' }
    const invalid = anthropic.validate(shadow)
    if (invalid) return invalid
    if (rec.vertexModel === 'count-tokens') return anthropicCount(rec, s.usage?.input)
    if (s.error) return anthropic.error(s.error.status, s.error.type, s.error.message, s.error.headers ?? {})
    const ctx: Ctx = { rec: shadow, body: shadow.json, plan: makePlan(s, model), stream: body.stream === true }
    const vertexIds = (text: string) => text.replace(/"msg_01/g, '"msg_vrtx_01').replace(/"req_011C/g, '"req_vrtx_011C')
    if (!ctx.stream) return new Response(vertexIds(JSON.stringify(anthropic.body(ctx))), { headers: { 'content-type': 'application/json' } })
    return chunked(anthropic.frames(ctx).map(vertexIds), 'text/event-stream; charset=utf-8', s.cutAfter, s.cutWhen)
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url)
    const text = await req.text()
    let parsed: unknown
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = undefined
    }
    const headers: Record<string, string> = {}
    req.headers.forEach((value, name) => (headers[name] = value))
    const rec: VertexRequest = {
      method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body: text, json: parsed,
      completed: true, aborted: false, at: Date.now(),
    }
    requests.push(rec)
    const list = req.method === 'GET' ? LIST_PATH.exec(url.pathname) : null
    if (list) {
      const bearer = /^Bearer (\S+)$/.exec(rec.headers['authorization'] ?? '')?.[1]
      rec.token = bearer ? options.tokens.tokenInfo(bearer) : undefined
      if (!rec.token) return googleError(401, 'UNAUTHENTICATED', `Request had invalid authentication credentials. ${AUTH_HELP}`)
      return publisherModels(list[1]!, url.searchParams, options.publisherModels ?? DEFAULT_PUBLISHER_MODELS)
    }
    const m = req.method === 'POST' ? PATH.exec(url.pathname) : null
    if (!m) return googleError(404, 'NOT_FOUND', `The requested URL ${url.pathname} was not found on this server.`)
    const refused = gate(rec, m)
    if (refused) return refused
    if (rec.json === undefined) return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unexpected end of string.')
    rec.model = rec.vertexModel
    const s = scenario(rec)
    return rec.publisher === 'anthropic' ? claude(rec, s) : google(rec, s)
  }

  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout: 0, fetch: handle })
  return {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port!,
    requests,
    setBehavior(b) {
      behavior = b
      counter = 0
    },
    reset() {
      requests.length = 0
      counter = 0
      behavior = options.behavior ?? { text: 'Hello from the fake Vertex.' }
    },
    stop: () => server.stop(true),
  }
}

/** A 200 streamed as the given pieces, one write each; with `cutAfter`, the connection breaks after that many. */
function chunked(pieces: string[], contentType: string, cutAfter?: number, cutWhen?: Promise<unknown>): Response {
  const encoder = new TextEncoder()
  let i = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (cutAfter !== undefined && i >= cutAfter) {
        await (cutWhen ?? Bun.sleep(30))
        return controller.error(undefined)
      }
      if (i >= pieces.length) return controller.close()
      controller.enqueue(encoder.encode(pieces[i++]))
    },
  })
  return new Response(body, { headers: { 'content-type': contentType, 'cache-control': 'no-cache' } })
}
