import { Elysia } from 'elysia'
import page from '../../ui/index.html'
import { NotFoundError } from '../../errors'
import { encodingFor, INDEX_PATH, loadConsoleAssets, type AssetTable, type ConsoleAsset } from './assets'

/** Paths the console never answers: their unknown routes keep their own API errors. */
const API_PREFIXES = ['/api', '/v1', '/v1beta', '/pg', '/metrics', '/healthz', '/readyz']
const isApiPath = (path: string) => API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))

// The console talks only to its own origin; nothing is fetched from anywhere else.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * The policy with one widget origin allowed (Turnstile's, while TurnstileCheckEnabled is on): its script, its
 * frame and its calls; nothing else is fetched from elsewhere.
 */
function policyWith(origin: string | undefined): string {
  if (!origin) return CONTENT_SECURITY_POLICY
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' ${origin}`).replace("connect-src 'self'", `connect-src 'self' ${origin}`) + `; frame-src ${origin}`
}

const PAGE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
}

/** `bun run dev` sets TOLLGATE_CONSOLE_DEV: Bun's own dev server bundles the console with hot reload. */
const consoleDevMode = () => process.env.TOLLGATE_CONSOLE_DEV === '1'

/** Bun.serve options for dev mode: the HTML import on every path but the API's (Elysia's hooks would hide it). */
export function consoleServeOptions() {
  if (!consoleDevMode()) return {}
  const api = Object.fromEntries(API_PREFIXES.flatMap((prefix) => [[prefix, false], [`${prefix}/*`, false]]))
  return { routes: { '/*': page, ...api } as Record<string, typeof page | false>, development: { hmr: true, console: true } }
}

/**
 * The web console: its hashed assets with a year of caching and br/gzip, and its page on every other GET
 * that is not an API path, so each deep link (`/tokens`, `/logs?…`) works on reload.
 */
export function consoleModule(widgetOrigin: () => string | undefined = () => undefined) {
  let assets: Promise<AssetTable> | undefined
  const serve = async (path: string, request: Request) => {
    if (isApiPath(path)) throw new NotFoundError('no such route')
    // a failed build (a source tree mid-edit) is tried again on the next request, not remembered
    const table = await (assets ??= loadConsoleAssets().catch((error: unknown) => {
      assets = undefined
      throw error
    }))
    const file = table.get(path)
    if (file) return respond(file, request)
    if (/\.[a-z0-9]+$/i.test(path)) throw new NotFoundError(`no file ${path}`)
    return respond(table.get(INDEX_PATH)!, request, policyWith(widgetOrigin()))
  }
  return new Elysia({ name: 'console' })
    .get('/', ({ path, request }) => serve(path, request))
    .get('/*', ({ path, request }) => serve(path, request))
}

/** A console file; `policy`: it is the page, with this Content-Security-Policy. */
function respond(file: ConsoleAsset, request: Request, policy?: string): Response {
  const headers: Record<string, string> = {
    'content-type': file.type,
    etag: file.etag,
    vary: 'accept-encoding',
    'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...(policy ? { 'content-security-policy': policy, ...PAGE_HEADERS } : { 'x-content-type-options': 'nosniff' }),
  }
  if (request.headers.get('if-none-match') === file.etag) return new Response(null, { status: 304, headers })
  const { body, encoding } = encodingFor(file, request.headers.get('accept-encoding') ?? '')
  if (encoding) headers['content-encoding'] = encoding
  return new Response(body as Uint8Array<ArrayBuffer>, { headers })
}
