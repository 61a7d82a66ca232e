import { Elysia } from 'elysia'
import type { AppDeps } from '../deps'
import { GatewayError } from '../errors'
import { isSecureRequest, sessionCookieOf } from './session'
import { pathStart } from './url-path'

type PeerSource = Parameters<typeof isSecureRequest>[2]

/**
 * GET routes (new-api's paths) that act rather than read: each needs the same origin as a write does, so an
 * `<img>` or a link on a same-site page cannot log the user out, rotate their access token or spend upstream
 * calls on channel tests. tests/hardening/csrf.test.ts checks each is still a route.
 */
export const ACTING_GETS = ['/api/user/logout', '/api/user/token', '/api/channel/test', '/api/channel/test/:id', '/api/channel/fetch_models/:id', '/api/channel/update_balance', '/api/channel/update_balance/:id', '/api/oauth/telegram/login', '/api/oauth/telegram/bind', '/api/oauth/wechat'] as const

const ACTING_GET_PATTERNS = ACTING_GETS.map((route) => new RegExp(`^${route.replace(/:[^/]+/g, '[^/]+')}/?$`))

/**
 * Payment providers' notifies and webhooks (modules/payments/webhooks.ts): posted by the provider's servers, as a
 * form (EPay) or JSON, with no session; each is checked by its own signature instead. Exempt exactly these paths.
 */
const PROVIDER_POSTS = new Set(['/api/user/epay/notify', '/api/stripe/webhook', '/api/creem/webhook'])

/** Browser-sent `Sec-Fetch-Site` values a page of this instance (or a user typing the URL) produces. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none'])

class CrossOriginError extends GatewayError {
  constructor(what: string) {
    super(403, 'cross_origin', `cross_origin: ${what}; this instance takes writes only from its own pages (behind a proxy: set ServerAddress, or TRUST_PROXY so the scheme is read)`)
  }
}

class NotJsonError extends GatewayError {
  constructor() {
    super(415, 'unsupported_media_type', 'this route takes a JSON body: send it with content-type: application/json')
  }
}

/**
 * Cross-origin writes (issue #28): the session cookie is ambient, and SameSite=Strict does not stop a page on
 * another port of the same host. So, for every write to /api and /pg (and the GETs that act), before routing
 * and before any body is read:
 * - a body must be `application/json` (a form or `text/plain` body is what a page can send without a CORS
 *   preflight, and no /api route answers one); a body-less request may omit the type;
 * - a browser's `Sec-Fetch-Site`, when sent, must be `same-origin` (or `none`: typed by the user), and an
 *   `Origin`, when sent, must be the instance's own (`ownOrigins`). Clients that send neither (curl, SDKs,
 *   scripts) pass; so does a request authenticated by a management access token alone (not an ambient
 *   credential: a page on another origin cannot attach it without a preflight).
 * One onRequest hook: every route under those prefixes is covered, a future one included.
 */
export function sameOriginWrites(deps: AppDeps) {
  return new Elysia({ name: 'same-origin-writes' }).onRequest(({ request, server }) => {
    const method = request.method
    const write = isWrite(method)
    if (!(write ? isSessionWrite(request.url) : method === 'GET' && actsOnGet(request.url))) return
    if (!byAccessTokenAlone(request.headers)) assertSameOrigin(deps, request, server)
    if (write) assertJsonBody(request.headers)
  })
}

/** Methods a browser page can send with the user's cookie and that change something (compared, not looked up: every request asks). */
function isWrite(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'DELETE' || method === 'PATCH'
}

function isSessionWrite(url: string): boolean {
  const own = pathStart(url)
  const elysia = elysiaPathStart(url)
  return underSessionPrefix(url, own) || (elysia !== own && underSessionPrefix(url, elysia))
}

/** The paths whose writes act with the console's session cookie: every /api route and the playground relay. */
function underSessionPrefix(url: string, at: number): boolean {
  return (url.startsWith('/api/', at) && !isProviderPost(url, at)) || url.startsWith('/pg/', at)
}

function isProviderPost(url: string, at: number): boolean {
  const query = url.indexOf('?', at)
  return PROVIDER_POSTS.has(query === -1 ? url.substring(at) : url.substring(at, query))
}

function actsOnGet(url: string): boolean {
  const own = pathStart(url)
  const elysia = elysiaPathStart(url)
  return actingGetAt(url, own) || (elysia !== own && actingGetAt(url, elysia))
}

function actingGetAt(url: string, at: number): boolean {
  if (!url.startsWith('/api/', at)) return false
  const query = url.indexOf('?', at)
  const path = query === -1 ? url.substring(at) : url.substring(at, query)
  return ACTING_GET_PATTERNS.some((pattern) => pattern.test(path))
}

/*
 * A request may be routed by either of two readings of its path, so both are checked: Bun's own (the URL's
 * path, for Bun's native routes) and Elysia's for its fallback router, which looks for the path's `/` from the
 * 12th character on and so, on a host of one to three characters (`http://llm/api/…`), starts it a segment later.
 */
function elysiaPathStart(url: string): number {
  return Math.max(url.indexOf('/', 11), 0) // none: Elysia reads the whole URL
}

function byAccessTokenAlone(headers: Headers): boolean {
  return /^Bearer\s+\S/i.test(headers.get('authorization') ?? '') && sessionCookieOf(headers) === undefined
}

function assertSameOrigin(deps: AppDeps, request: Request, server: PeerSource): void {
  const site = request.headers.get('sec-fetch-site')
  if (site !== null && !OWN_FETCH_SITES.has(site)) throw new CrossOriginError(`the browser says this request comes from a ${clip(site)} page`)
  const origin = request.headers.get('origin')
  if (origin !== null && !ownOrigins(deps, request, server).includes(origin)) throw new CrossOriginError(`Origin ${clip(origin)} is not this instance's origin`)
}

function assertJsonBody(headers: Headers): void {
  const type = headers.get('content-type')
  if (type === null ? hasBody(headers) : mediaType(type) !== 'application/json') throw new NotJsonError()
}

function hasBody(headers: Headers): boolean {
  const length = headers.get('content-length')
  return headers.has('transfer-encoding') || (length !== null && length.trim() !== '0')
}

function mediaType(contentType: string): string {
  return contentType.split(';', 1)[0]!.trim().toLowerCase()
}

/**
 * The origins a page of this instance has: the `ServerAddress` option's when set (so a proxy that rewrites Host
 * still works), and always the request's own (scheme as the session cookie reads it, host from Host), so a
 * ServerAddress that differs from where the console is opened cannot lock root out of saving settings.
 */
function ownOrigins(deps: AppDeps, request: Request, server: PeerSource): string[] {
  const origins: string[] = []
  const configured = originOf(deps.options.get<string>('ServerAddress'))
  if (configured) origins.push(configured)
  const own = requestOrigin(deps, request, server)
  if (own) origins.push(own)
  return origins
}

/** The origin the client addressed: `https` when `isSecureRequest` says so, else `http`, with the Host header. */
function requestOrigin(deps: AppDeps, request: Request, server: PeerSource): string | undefined {
  const host = request.headers.get('host')
  if (!host) return undefined
  return originOf(`${isSecureRequest(deps, request, server) ? 'https' : 'http'}://${host}`)
}

function originOf(address: string): string | undefined {
  if (!address) return undefined
  try {
    const origin = new URL(address).origin
    return origin === 'null' ? undefined : origin
  } catch {
    return undefined
  }
}

/** A client's header value as far as a message needs it. */
function clip(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)
}
