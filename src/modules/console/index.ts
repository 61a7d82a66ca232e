import { Elysia } from 'elysia'
import page from '../../ui/index.html'
import { NotFoundError } from '../../errors'
import type { ContentOrigins } from '../site/logo'
import { encodingFor, INDEX_PATH, loadConsoleAssets, type AssetTable, type ConsoleAsset } from './assets'

/** Paths the console never answers: their unknown routes keep their own API errors. */
const API_PREFIXES = ['/api', '/v1', '/v1beta', '/pg', '/metrics', '/healthz', '/readyz']
const isApiPath = (path: string) => API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))

// The console talks only to its own origin; nothing is fetched from anywhere else.
// The operator's logo and framed pages (an https home page or About) add their own origins: `contentOrigins`;
// a widget (Turnstile's, while it is on) its script, its frame and its calls; EPay's gateway the wallet's form.
const contentSecurityPolicy = ({ img, frame, widget = [], form = [] }: ContentOrigins) => [
  "default-src 'none'",
  ["script-src 'self'", ...widget].join(' '),
  "style-src 'self'",
  ["img-src 'self' data:", ...img].join(' '),
  ...(frame.length || widget.length ? [`frame-src ${[...frame, ...widget].join(' ')}`] : []),
  "font-src 'self'",
  ["connect-src 'self'", ...widget].join(' '),
  "manifest-src 'self'",
  "base-uri 'none'",
  ["form-action 'self'", ...form].join(' '),
  "frame-ancestors 'none'",
].join('; ')

const pageHeaders = (origins: ContentOrigins) => ({
  'content-security-policy': contentSecurityPolicy(origins),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
})

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
export function consoleModule(origins: () => ContentOrigins = () => ({ img: [], frame: [] })) {
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
    return respond(table.get(INDEX_PATH)!, request, pageHeaders(origins()))
  }
  return new Elysia({ name: 'console' })
    .get('/', ({ path, request }) => serve(path, request))
    .get('/*', ({ path, request }) => serve(path, request))
}

/** An asset, or the page when `page` carries its headers (the CSP). */
function respond(file: ConsoleAsset, request: Request, page?: Record<string, string>): Response {
  const headers: Record<string, string> = {
    'content-type': file.type,
    etag: file.etag,
    vary: 'accept-encoding',
    'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...(page ?? { 'x-content-type-options': 'nosniff' }),
  }
  if (request.headers.get('if-none-match') === file.etag) return new Response(null, { status: 304, headers })
  const { body, encoding } = encodingFor(file, request.headers.get('accept-encoding') ?? '')
  if (encoding) headers['content-encoding'] = encoding
  return new Response(body as Uint8Array<ArrayBuffer>, { headers })
}
