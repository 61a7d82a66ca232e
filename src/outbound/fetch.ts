/**
 * The one way the server dials out: channel requests (relay, channel test, fetch_models), OAuth token endpoints
 * (Vertex's service account `token_uri`), signed AWS calls, and anything added later. Each call:
 * 1. goes where PROVIDER_ENDPOINTS sends its host, if it names it (the operator's choice: private targets allowed);
 * 2. has its host resolved once (`./resolver.ts`) and every address judged: link-local and metadata never, private
 *    and loopback only with `ChannelPrivateNetworksAllowed`; a refusal throws OutboundRefused before any byte is sent;
 * 3. connects to the address that was checked, not to the name: the URL carries the IP, the Host header and the TLS
 *    server name (SNI and the certificate check) the original name, so a name that resolves elsewhere a moment
 *    later (DNS rebinding) changes nothing;
 * 4. never follows a redirect: a 3xx throws OutboundRedirected naming where it pointed.
 */
import { refusal } from './address-class'
import { OutboundRefused } from './fetch-errors'
import { proxyRoute, type ProxyRoute } from './proxy'
import { type EndpointMap, NO_ENDPOINTS } from './endpoints'
import { type Resolved, type Resolver, sharedResolver } from './resolver'
import { dialWebSocket, type OutboundWebSocket, type WebSocketInit } from './websocket'

/** `proxy`: the channel's HTTP(S) or SOCKS5 proxy (./proxy.ts says how the checked address still holds through it) */
type OutboundInit = RequestInit & { proxy?: string }
export type OutboundFetch = (url: string, init?: OutboundInit) => Promise<Response>

export { OutboundRefused }

/** The far end answered with a redirect, which is not followed (it could carry the key to another host). */
export class OutboundRedirected extends OutboundRefused {
  constructor(
    readonly status: number,
    readonly location: string | null,
  ) {
    super(redirectMessage(status, location))
  }
}

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304
}

function redirectMessage(status: number, location: string | null): string {
  return `upstream ${status} redirected to ${location || '(no location)'}: redirects are not followed (set the channel's base_url to the final address)`
}

export interface Outbound {
  fetch: OutboundFetch
  /** A WebSocket to `url` (http(s), dialled as ws(s)), checked and pinned as `fetch` is; resolves once the far end accepted it. */
  webSocket: OutboundWebSocket
  /** Why `url` may not be dialled now (for a form being saved: a name that does not resolve is no refusal), or undefined. */
  refusalFor(url: string): Promise<string | undefined>
}

export interface OutboundOptions {
  /** `ChannelPrivateNetworksAllowed`, read on every call */
  allowPrivate: () => boolean
  /** PROVIDER_ENDPOINTS */
  endpoints?: EndpointMap
  resolver?: Resolver
}

/** A URL as dialled: after PROVIDER_ENDPOINTS, parsed once (its name and text kept: URL's getters build a new string each read). */
interface Target {
  url: URL
  trusted: boolean
  hostname: string
  href: string
  /** the resolver's answer last allowed for this target, and the private-networks setting it was allowed under */
  allowed?: Resolved
  allowedPrivate?: boolean
}

/** Distinct URLs remembered parsed (a relay URL recurs per channel and model); the oldest goes first. */
const MAX_TARGETS = 4096

export function createOutbound(options: OutboundOptions): Outbound {
  const endpoints = options.endpoints ?? NO_ENDPOINTS
  const resolver = options.resolver ?? sharedResolver
  const targets = new Map<string, Target>()

  const targetOf = (text: string): Target => {
    let target = targets.get(text)
    if (target) return target
    let url: URL
    try {
      url = new URL(text)
    } catch {
      throw new OutboundRefused(`upstream address refused: ${JSON.stringify(text.slice(0, 200))} is not a URL`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(`upstream address refused: ${url.protocol} is not http or https`)
    const rewritten = endpoints.rewrite(url)
    target = { ...rewritten, hostname: rewritten.url.hostname, href: rewritten.url.href }
    if (targets.size >= MAX_TARGETS) targets.delete(targets.keys().next().value!)
    targets.set(text, target)
    return target
  }

  const why = (target: Target, resolved: Resolved): string | undefined =>
    refusal(target.hostname, resolved.verdict, target.trusted || options.allowPrivate(), resolved.decidedBy)

  /** A proxy's host, checked as a target is (PROVIDER_ENDPOINTS may name it too): the IP to dial it at. */
  const checkProxy = async (proxy: URL): Promise<string> => {
    const trusted = endpoints.rewrite(new URL(`http://${proxy.host}`)).trusted
    const pending = resolver.resolve(proxy.hostname)
    const resolved = pending instanceof Promise ? await pending : pending
    if (resolved.failure) throw new OutboundRefused(`proxy refused: ${resolved.failure}`)
    const refused = refusal(proxy.hostname, resolved.verdict, trusted || options.allowPrivate(), resolved.decidedBy)
    if (refused) throw new OutboundRefused(`proxy refused: ${refused}`)
    return resolved.connectTo
  }
  const viaProxy = (proxy: string, url: URL, connectTo: string): Promise<ProxyRoute> =>
    proxyRoute(proxy, checkProxy, { address: connectTo || url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) })

  /** Throws OutboundRefused for an address that may not be dialled. */
  const judged = (target: Target, resolved: Resolved): Resolved => {
    if (resolved.failure) throw new OutboundRefused(`upstream address refused: ${resolved.failure}`)
    const refused = why(target, resolved)
    if (refused) throw new OutboundRefused(`upstream address refused: ${refused}`)
    return resolved
  }
  /** The target after PROVIDER_ENDPOINTS, resolved once and judged: throws OutboundRefused before anything is sent. */
  const checked = async (text: string): Promise<{ target: Target; resolved: Resolved }> => {
    const target = targetOf(text)
    return { target, resolved: judged(target, await resolver.resolve(target.hostname)) }
  }

  /**
   * `judged`, remembered on the target: the same answer (the resolver's object, new after its TTL) under the same
   * `ChannelPrivateNetworksAllowed` was allowed already. A refusal is never remembered: it is judged again and throws.
   */
  const judgedOnce = (target: Target, resolved: Resolved): Resolved => {
    const allowPrivate = options.allowPrivate()
    if (target.allowed === resolved && target.allowedPrivate === allowPrivate) return resolved
    judged(target, resolved)
    target.allowed = resolved
    target.allowedPrivate = allowPrivate
    return resolved
  }

  return {
    async webSocket(text: string, init: WebSocketInit) {
      const { target, resolved } = await checked(text)
      const { url } = target
      // the checked address dialled; the name in Host and in the TLS server name, as `fetch` pins it
      const pinned = resolved.connectTo ? { host: url.host, serverName: url.protocol === 'https:' ? url.hostname.replace(/\.$/, '') : undefined } : {}
      return dialWebSocket(pinnedUrl(url, resolved.connectTo), url.href, pinned, init)
    },

    async fetch(text, init) {
      // a known address (an IP, an answer within its TTL) is judged without an await, its allowed verdict remembered: the relay's every call
      const target = targetOf(text)
      const pending = resolver.resolve(target.hostname)
      const resolved = judgedOnce(target, pending instanceof Promise ? await pending : pending)
      const pinned = resolved.connectTo ? pinnedUrl(target.url, resolved.connectTo) : target.href
      const proxy = init?.proxy
      const via = proxy ? await viaProxy(proxy, target.url, resolved.connectTo) : undefined
      let response: Response
      try {
        response = await fetch(pinned, pinnedInit(target.url, resolved.connectTo, init, via))
      } catch (error) {
        // Bun's messages quote the URL dialled: name the one the caller knows (`fetching "https://1.2.3.4/…"` otherwise)
        if (error instanceof Error && error.message.includes(pinned)) error.message = error.message.replaceAll(pinned, target.href)
        throw error
      } finally {
        via?.done?.()
      }
      if (isRedirect(response.status)) {
        void response.body?.cancel().catch(() => {})
        throw new OutboundRedirected(response.status, response.headers.get('location'))
      }
      return response
    },

    async refusalFor(text) {
      let target: Target
      try {
        target = targetOf(text)
      } catch (error) {
        return (error as Error).message
      }
      const resolved = await resolver.resolve(target.hostname)
      return why(target, resolved)
    },
  }
}

/** The URL with the checked address in place of the name ('' = the host is that address already). */
function pinnedUrl(url: URL, address: string): string {
  if (!address) return url.href
  const host = address.includes(':') ? `[${address}]` : address
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}${url.pathname}${url.search}`
}

/**
 * The caller's init in one copy: redirects off; the channel's proxy replaced by the route to it (Bun's own `proxy`
 * never sees the caller's URL); for a pinned address, the name in Host and in the TLS server name.
 */
function pinnedInit(url: URL, address: string, init: OutboundInit = {}, via: ProxyRoute | undefined): BunFetchRequestInit {
  const pinned: BunFetchRequestInit & { proxy?: string } = { ...init, redirect: 'manual', proxy: via?.proxy }
  if (via) pinned.keepalive = via.keepalive
  if (!address) return pinned
  pinned.headers = withHost(init.headers, url.host)
  if (url.protocol === 'https:') pinned.tls = { ...(init as BunFetchRequestInit).tls, serverName: url.hostname.replace(/\.$/, '') }
  return pinned
}

function withHost(headers: HeadersInit | undefined, host: string): HeadersInit {
  if (headers instanceof Headers) {
    const copy = new Headers(headers)
    copy.set('host', host)
    return copy
  }
  if (Array.isArray(headers)) return [...headers.filter(([name]) => name.toLowerCase() !== 'host'), ['host', host]]
  const record = { ...(headers as Record<string, string> | undefined) }
  for (const name of Object.keys(record)) if (name.toLowerCase() === 'host') delete record[name] // one Host, ours
  record.host = host
  return record
}
