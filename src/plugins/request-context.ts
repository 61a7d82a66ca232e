import { Elysia } from 'elysia'
import type { Config } from '../config'
import { PayloadTooLargeError } from '../errors'
import { isLoopback, unmapIPv4 } from '../net/ip'
import { clientAddress, forwardedClient, trustsPeer, type TrustProxy } from '../net/trusted-proxies'
import { limitBodyReads } from './body-limit'
import { assertJsonDepth } from './json-depth'
import { pathStart } from './url-path'

/**
 * When a request arrived and the id it was given, set on the request's own context by the first hook: Elysia hands
 * that one context object on to the route's hooks, its handler and the error handler, which read `arrival` by name.
 */
export interface Arrival {
  /** performance.now() when the request reached the app's first hook (routing, auth and parsing come after) */
  at: number
  /** echoed in `x-request-id`; error rendering reads it even when parsing failed */
  id: string
}

/** A context the request-context hook has been through (`arrival` is absent only where no such hook ran: a bare test app). */
export interface ArrivedContext {
  arrival?: Arrival
}

let arrivedCount = 0

/** How many requests have reached an app in this process (the idle collector watches it). */
export function requestsArrived(): number {
  return arrivedCount
}

/**
 * Per-request facts every module needs: an arrival time, a request id (echoed in a header) and the body limit:
 * a declared `Content-Length` over it is a 413 before anything is read; a chunked body is counted as it is
 * read (`limitBodyReads`), a 413 at the first byte past it. Either 413 is thrown, so the error router gives it
 * the route's shape (Bun's own `maxRequestBodySize` is set far above, see app.ts: its 413 has no body).
 * An onRequest hook and one transform (a path test, then a walk of /api bodies only), no derive: a derive here
 * would run for every route, relay included, whether it is read or not; the client IP is asked for by the
 * routes that need it (`clientIpOf`), once.
 */
export function requestContext(config: Pick<Config, 'maxBodyBytes'>) {
  return (
    new Elysia({ name: 'request-context' })
      // the context's fields read by name: Elysia reads a hook's source to decide what to prepare for every route
      .onRequest((context: ArrivedContext & { request: Request; set: { headers: Record<string, unknown> } }) => {
        arrivedCount++
        const requestId = newRequestId()
        context.arrival = { at: performance.now(), id: requestId }
        context.set.headers['x-request-id'] = requestId
        enforceBodyLimit(context.request, config.maxBodyBytes)
      })
      // /api bodies, however they were parsed (JSON, or JSON inside form fields), before any schema sees them;
      // the relay checks its own (modules/relay/wire-check) only when a body fails its schema, off the hot path
      .onTransform({ as: 'global' }, ({ body, request }) => {
        if (body !== undefined && request.url.startsWith('/api/', pathStart(request.url))) assertJsonDepth(body)
      })
  )
}

/** 413 at once for a declared length over `limit`; a chunked body (no declared length) is counted as it is read. */
export function enforceBodyLimit(request: Request, limit: number): void {
  const length = request.headers.get('content-length')
  if (length !== null) {
    if (Number(length) > limit) throw new PayloadTooLargeError(limit)
  } else if (request.headers.has('transfer-encoding')) {
    limitBodyReads(request, limit)
  }
}

/**
 * For a handler that returns a Response already carrying x-request-id (the relay pipeline's): with the id left
 * in `set.headers`, Elysia would copy that Response (headers and all) only to merge the same header again.
 */
export function idCarriedByResponse(set: { headers: Record<string, unknown> }): void {
  delete set.headers['x-request-id']
}

export type IpSource = { requestIP(request: Request): { address: string } | null } | null

/**
 * The caller's address: the socket's peer, or with TRUST_PROXY the right-most `X-Forwarded-For` address that is
 * not a trusted proxy (`clientAddress` in net/trusted-proxies). `X-Real-IP` and `Forwarded` are never read.
 */
export function clientIpOf(request: Request, server: IpSource, trustProxy: TrustProxy): string {
  if (!trustProxy) return peerOf(request, server)
  const forwardedFor = request.headers.get('x-forwarded-for')
  if (trustProxy.proxies) return clientAddress(peerOf(request, server), forwardedFor, trustProxy)
  // a hop count trusts any peer: looked up (~2 µs in Bun) only when the header names no client
  return forwardedClient(forwardedFor, trustProxy) ?? peerOf(request, server)
}

/**
 * Whether the client reached us over HTTPS: the request's own scheme, or `X-Forwarded-Proto: https` (its first
 * value, as the proxy nearest the client wrote it) from a peer TRUST_PROXY trusts.
 */
export function isHttpsRequest(request: Request, server: IpSource, trustProxy: TrustProxy): boolean {
  if (request.url.startsWith('https:')) return true
  if (!trustProxy || !trustsPeer(peerOf(request, server), trustProxy)) return false
  const proto = request.headers.get('x-forwarded-proto')
  return proto !== null && /^\s*https\s*(,|$)/i.test(proto)
}

const peerOf = (request: Request, server: IpSource): string => unmapIPv4(server?.requestIP(request)?.address ?? '')

/** Headers a reverse proxy adds: a request carrying one was relayed for someone else, whatever its socket says. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const

export function relayedByProxy(headers: Headers): boolean {
  return FORWARDING_HEADERS.some((name) => headers.has(name))
}

/**
 * A request from this machine: the socket's peer is a loopback address (never a header's word) and no proxy relayed
 * it (a proxy on the same host connects from loopback on behalf of anyone).
 */
export function fromThisMachine(request: Request, server: IpSource): boolean {
  return !relayedByProxy(request.headers) && isLoopback(peerOf(request, server))
}

function newRequestId(): string {
  // no encoding argument: the default is the same hex form, and passing one doubles the cost (~160 vs ~85 ns)
  return `req_${Bun.randomUUIDv7()}`
}
