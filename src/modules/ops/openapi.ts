import { toOpenAPISchema } from '@elysiajs/openapi/openapi'
import { Elysia, t } from 'elysia'
import apiMarkdown from '../../../docs/api.md' with { type: 'text' }
import bundlePath from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import cssPath from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }
import faviconPath from 'swagger-ui-dist/favicon-32x32.png' with { type: 'file' }
import { NotFoundError } from '../../errors'
import { Role } from '../../db/repos/user-roles'
import { protocolFor } from '../../relay/protocol-registry'
import { VERSION } from '../../version'
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import type { ConsoleAsset } from '../console/assets'

type Operation = Record<string, unknown> & { tags?: string[]; summary?: string; description?: string; security?: unknown[] }
type Document = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> } & Record<string, unknown>

const ROLE_NAMES: Record<number, string> = { [Role.user]: 'user', [Role.admin]: 'admin', [Role.root]: 'root' }
/** /api routes that authenticate by an API key (`sk-…`) rather than a session */
const API_KEY_ROUTES = new Set(['/api/usage/token/'])
/** /api routes whose handler decides who may call (no role macro) */
const ROLE_OVERRIDES: Record<string, string> = { 'GET /api/pricing': 'user (public when the PublicPricingEnabled option is on)' }

/** Relay routes: who calls them, with which key, and the client protocol's own request schema. */
const RELAY: Record<string, { summary: string; protocol?: 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini'; security: string[] }> = {
  'POST /v1/chat/completions': { summary: 'OpenAI Chat Completions, stream and non-stream', protocol: 'openai-chat', security: ['apiKey'] },
  'POST /v1/responses': { summary: 'OpenAI Responses', protocol: 'openai-responses', security: ['apiKey'] },
  'POST /v1/messages': { summary: 'Anthropic Messages (needs the anthropic-version header)', protocol: 'anthropic', security: ['apiKey', 'anthropicKey'] },
  'POST /v1/messages/count_tokens': { summary: 'Anthropic token count: {input_tokens} by a real BPE tokenizer', security: ['apiKey', 'anthropicKey'] },
  'GET /v1/models': { summary: "The token's models, in a shape the OpenAI, Anthropic and Gemini SDKs all parse", security: ['apiKey', 'anthropicKey', 'googApiKey'] },
  'GET /v1/models/{model}': { summary: 'One model of the token', security: ['apiKey', 'anthropicKey', 'googApiKey'] },
  'POST /v1beta/models/{model}': { summary: 'Gemini generateContent / streamGenerateContent (`{model}` is `name:action`)', protocol: 'gemini', security: ['apiKey', 'googApiKey'] },
  'POST /v1/models/{model}': { summary: 'Gemini generateContent / streamGenerateContent under /v1 (the Gemini SDK default)', protocol: 'gemini', security: ['apiKey', 'googApiKey'] },
  'GET /v1beta/models': { summary: "The token's models in Gemini's shape", security: ['apiKey', 'googApiKey'] },
  'GET /v1beta/models/{model}': { summary: "One model in Gemini's shape", security: ['apiKey', 'googApiKey'] },
  'GET /v1/realtime': { summary: 'OpenAI Realtime over a WebSocket (`?model=`; the key as Bearer or in the `openai-insecure-api-key.<key>` subprotocol)', security: ['apiKey'] },
  'POST /pg/chat/completions': { summary: "The console's playground: Chat Completions charged to the logged-in user", protocol: 'openai-chat', security: ['session', 'accessToken'] },
}

const OTHER: Record<string, { summary: string; tag: string }> = {
  'HEAD /': { summary: 'Liveness probe clients send (Claude Code sends HEAD /)', tag: 'relay' },
  'GET /': { summary: 'The web console', tag: 'console' },
  'GET /*': { summary: 'The web console: its hashed assets, or its page for any other path (deep links)', tag: 'console' },
}

/**
 * The OpenAPI 3.1 document of every route of the app, generated from the routes' TypeBox schemas by
 * @elysiajs/openapi's `toOpenAPISchema`, then given what the schemas do not say: each /api route's role
 * (`x-tollgate-role`, from the session macro) and its line of docs/api.md, how each route authenticates, and
 * the relay routes' request bodies (each client protocol's own schema, which the relay checks by hand).
 * Built on the first request and kept (routes do not change while the process runs).
 */
function buildOpenApiDocument(app: Elysia<any, any, any, any, any, any, any>): Document {
  const generated = toOpenAPISchema(app, { staticFile: false, methods: ['options'] }, undefined, undefined, '3.1.0') as unknown as {
    paths: Record<string, Record<string, Operation>>
    components: { schemas: Record<string, unknown> }
  }
  const described = describedRoutes()
  const paths: Document['paths'] = {}
  for (const [path, methods] of Object.entries(generated.paths)) {
    for (const [listed, raw] of Object.entries(methods)) {
      // a WebSocket route (realtime) is, on the wire, a GET that asks to upgrade: OpenAPI has no `ws` method
      const method = listed === 'ws' ? 'get' : listed
      const op: Operation = { ...raw }
      const route = `${method.toUpperCase()} ${path}`
      const roleValue = op['x-tollgate-role']
      if (path.startsWith('/api')) {
        const role =
          typeof roleValue === 'number' ? ROLE_NAMES[roleValue] ?? String(roleValue) : ROLE_OVERRIDES[route] ?? (API_KEY_ROUTES.has(path) ? 'api key' : 'public')
        op['x-tollgate-role'] = role
        op.tags ??= [path.split('/')[2] || 'api']
        if (role === 'public') op.security = []
        else if (ROLE_OVERRIDES[route]) op.security = [{}, { session: [] }, { accessToken: [] }]
        if (role === 'api key') op.security = [{ apiKey: [] }]
        op.summary ??= described.get(route) ?? route
        // the generator lists form types for every body; /api takes JSON only (plugins/same-origin.ts)
        if (op.requestBody) op.requestBody = jsonOnly(op.requestBody as RequestBody)
        op.description = `Role: **${role}**${roleValue !== undefined ? ` (${roleValue} or above)` : ''}.${op.description ? `\n\n${String(op.description)}` : ''}`
      } else if (RELAY[route]) {
        const relay = RELAY[route]!
        op.tags ??= ['relay']
        op.summary ??= relay.summary
        op['x-tollgate-role'] = relay.security.includes('session') ? 'user' : 'api key'
        op.security = relay.security.map((name) => ({ [name]: [] }))
        if (relay.protocol && !op.requestBody) {
          op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(protocolFor(relay.protocol).requestSchema) } } }
        }
        op.description ??= 'Errors come in the client protocol\'s own shape, with a `request_id`; every answer carries `x-request-id`.'
      } else {
        const other = OTHER[route]
        op.tags ??= [other?.tag ?? 'operations']
        op.summary ??= other?.summary ?? route
        op['x-tollgate-role'] ??= 'public'
        op.security ??= []
      }
      op.responses ??= { default: { description: 'see the summary' } }
      op.operationId ??= operationId(method, path)
      ;(paths[path] ??= {})[method] = op
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tollgate',
      version: VERSION,
      description:
        'A self-hosted LLM API gateway. `/api` is the management API (new-api compatible `{success, message, data}` envelope; the role each route needs is in `x-tollgate-role`), `/v1`, `/v1beta` and `/pg` the relay, `/healthz`, `/readyz` and `/metrics` the operations endpoints.',
    },
    tags: [
      { name: 'relay', description: 'OpenAI, Anthropic and Gemini compatible endpoints (API key)' },
      { name: 'operations', description: 'Health, readiness, metrics, this document' },
      { name: 'console', description: 'The web console' },
    ],
    paths,
    components: {
      schemas: generated.components.schemas ?? {},
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'tollgate_session', description: 'the session cookie from POST /api/user/login' },
        accessToken: { type: 'http', scheme: 'bearer', description: 'a management access token from GET /api/user/token' },
        apiKey: { type: 'http', scheme: 'bearer', description: 'an API key (sk-…) from POST /api/token/' },
        anthropicKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'an API key, as Anthropic clients send it' },
        googApiKey: { type: 'apiKey', in: 'header', name: 'x-goog-api-key', description: 'an API key, as Gemini clients send it (or ?key=)' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, when set' },
      },
    },
  }
}

/** docs/api.md's route table: `METHOD /path` → what the route does (its third column). */
function describedRoutes(): Map<string, string> {
  const out = new Map<string, string>()
  for (const line of apiMarkdown.split('\n')) {
    const cells = line.split(' | ')
    if (!line.startsWith('| `') || cells.length < 3) continue
    const what = cells.slice(2).join(' | ').replace(/\s*\|\s*$/, '').trim()
    for (const match of cells[0]!.matchAll(/`(GET|POST|PUT|DELETE|HEAD) (\/[^` ?]*)[^`]*`/g)) {
      out.set(`${match[1]} ${match[2]!.replace(/:(\w+)/g, '{$1}')}`, what)
    }
  }
  return out
}

type RequestBody = Record<string, unknown> & { content?: Record<string, unknown> }

function jsonOnly(body: RequestBody): RequestBody {
  const json = body.content?.['application/json']
  return json ? { ...body, content: { 'application/json': json } } : body
}

/** A TypeBox schema as plain JSON Schema (its Symbol keys dropped). */
function jsonSchema(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema))
}

function operationId(method: string, path: string): string {
  const words = path.split(/[^a-zA-Z0-9]+/).filter(Boolean)
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('') + (path.endsWith('/') ? 'Root' : '')
}

// Swagger UI, served from the binary: no CDN, no remote font, no validator call (validatorUrl: null)
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Swagger UI sets style attributes from script
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tollgate API reference</title>
<link rel="icon" type="image/png" href="docs/favicon.png">
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`

const INIT = `window.ui = SwaggerUIBundle({
  url: new URL('openapi.json', location.href).pathname,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  withCredentials: true,
  defaultModelsExpandDepth: 0,
  docExpansion: 'none',
  filter: true,
})
`

interface DocFile {
  load(): Promise<ConsoleAsset>
}

function fileAsset(path: string, type: string): DocFile {
  let asset: Promise<ConsoleAsset> | undefined
  return {
    load: () =>
      (asset ??= Bun.file(path)
        .bytes()
        .then((body) => ({ body, type, etag: `"${VERSION}-${Bun.hash(body).toString(36)}"`, immutable: false }))),
  }
}

function textAsset(text: string, type: string): DocFile {
  const body = new TextEncoder().encode(text)
  const asset: ConsoleAsset = { body, type, etag: `"${Bun.hash(body).toString(36)}"`, immutable: false }
  return { load: async () => asset }
}

const FILES: Record<string, DocFile> = {
  'swagger-ui-bundle.js': fileAsset(bundlePath, 'text/javascript; charset=utf-8'),
  'swagger-ui.css': fileAsset(cssPath, 'text/css; charset=utf-8'),
  'favicon.png': fileAsset(faviconPath, 'image/png'),
  'init.js': textAsset(INIT, 'text/javascript; charset=utf-8'),
}

/** br or gzip, made once per file on first request: brotli at quality 5 (the 1.7 MB script in ~50 ms; quality 11 takes seconds) */
function encodingFor(asset: ConsoleAsset, acceptEncoding: string): { body: Uint8Array; encoding?: 'br' | 'gzip' } {
  if (asset.type.startsWith('image/') || asset.body.byteLength < 512) return { body: asset.body }
  if (/\bbr\b/.test(acceptEncoding)) {
    asset.brotli ??= brotliCompressSync(asset.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } })
    return { body: asset.brotli, encoding: 'br' }
  }
  if (/\bgzip\b/.test(acceptEncoding)) {
    asset.gzip ??= gzipSync(asset.body, { level: 6 })
    return { body: asset.gzip, encoding: 'gzip' }
  }
  return { body: asset.body }
}

function respond(asset: ConsoleAsset, request: Request, headers: Record<string, string> = {}): Response {
  const all: Record<string, string> = { 'content-type': asset.type, etag: asset.etag, vary: 'accept-encoding', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', ...headers }
  if (request.headers.get('if-none-match') === asset.etag) return new Response(null, { status: 304, headers: all })
  const { body, encoding } = encodingFor(asset, request.headers.get('accept-encoding') ?? '')
  if (encoding) all['content-encoding'] = encoding
  return new Response(body as Uint8Array<ArrayBuffer>, { headers: all })
}

/** GET /api/openapi.json, and the reference page at /api/docs with its files, all public. */
export function openapiModule() {
  let document: ConsoleAsset | undefined
  const page = textAsset(PAGE, 'text/html; charset=utf-8')
  const plugin = new Elysia({ name: 'ops-openapi' })
  return plugin
    .get(
      '/api/openapi.json',
      ({ request }) => {
        // every route is registered by the time anyone can ask: built once, kept
        if (!document) {
          const body = new TextEncoder().encode(JSON.stringify(buildOpenApiDocument(plugin)))
          document = { body, type: 'application/json', etag: `"${Bun.hash(body).toString(36)}"`, immutable: false }
        }
        return respond(document, request)
      },
      { detail: { tags: ['operations'], summary: 'This document: OpenAPI 3.1 of every route, with the role each /api route needs' } },
    )
    .get('/api/docs', async ({ request }) => respond(await page.load(), request, { 'content-security-policy': DOCS_CSP, 'x-frame-options': 'DENY', 'referrer-policy': 'same-origin' }), {
      detail: { tags: ['operations'], summary: 'The API reference page (Swagger UI, served from the binary)' },
    })
    .get(
      '/api/docs/:file',
      async ({ params, request }) => {
        const file = FILES[params.file]
        if (!file) throw new NotFoundError(`no file ${params.file}`)
        return respond(await file.load(), request)
      },
      { params: t.Object({ file: t.String({ maxLength: 64 }) }), detail: { tags: ['operations'], summary: "The reference page's files (Swagger UI's script and styles)" } },
    )
}
