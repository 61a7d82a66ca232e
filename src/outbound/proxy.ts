/**
 * A channel's proxy, inside the outbound guard. The rule "the address checked is the address connected to" holds
 * through it this way:
 * - the target's name is resolved and checked here, as without a proxy, and the proxy is handed the checked IP
 *   (an HTTPS target: `CONNECT <ip>:443`, TLS still names the host; plain HTTP: the request line carries the IP),
 *   so the proxy never resolves the name itself;
 * - the proxy's own name is resolved and checked by the same rules (a private or loopback proxy only with
 *   ChannelPrivateNetworksAllowed, or when PROVIDER_ENDPOINTS names it), and dialled at the checked IP.
 * HTTP(S) proxies are Bun's fetch `proxy`; SOCKS5 goes through a loopback bridge (./socks-bridge.ts) that
 * speaks HTTP CONNECT to fetch and SOCKS5 to the proxy, for this one call's checked addresses only.
 */
import { OutboundRefused } from './fetch-errors'
import { socksBridge } from './socks-bridge'

/** Resolves a host, refuses it (OutboundRefused) if it may not be dialled, else gives the IP to connect to. */
export type CheckHost = (url: URL) => Promise<string>

/** What fetch gets in place of the channel's proxy URL. */
export interface ProxyRoute {
  proxy: string
  keepalive?: boolean
  /** the bridge's ticket is dropped once the call is over */
  done?: () => void
}

export async function proxyRoute(proxyText: string, check: CheckHost, target: { address: string; port: number }): Promise<ProxyRoute> {
  let proxy: URL
  try {
    proxy = new URL(proxyText)
  } catch {
    throw new OutboundRefused('proxy refused: not a URL')
  }
  const address = await check(proxy)
  if (proxy.protocol === 'http:' || proxy.protocol === 'https:') return { proxy: withHost(proxy, address) }
  if (proxy.protocol !== 'socks5:' && proxy.protocol !== 'socks5h:') throw new OutboundRefused(`proxy refused: ${proxy.protocol} is not http, https or socks5`)
  const port = Number(proxy.port || 1080)
  const ticket = await socksBridge().admit({
    socks: { address, port, user: decodeURIComponent(proxy.username), password: decodeURIComponent(proxy.password) },
    target,
  })
  // one connection per call: the bridge's ticket names one target
  return { proxy: ticket.proxyUrl, keepalive: false, done: ticket.drop }
}

/** The proxy URL with the checked IP for its host (credentials and port kept). */
function withHost(proxy: URL, address: string): string {
  if (!address) return proxy.href
  const copy = new URL(proxy.href)
  copy.hostname = address.includes(':') ? `[${address}]` : address
  return copy.href
}
