import type { BlockList } from 'node:net'
import { ipFamily, ipv4Number, loadNet, parseIpEntry, unmapIPv4, type IpEntry } from './ip'

/**
 * TRUST_PROXY, parsed once at start: `false` (the socket's peer is the client), a hop count (the peer and the
 * entries it and the proxies before it appended are proxies), or the proxies' own addresses and ranges.
 */
export type TrustProxy = false | TrustedProxies
export type TrustedProxies = { readonly hops: number; readonly proxies?: undefined } | { readonly hops?: undefined; readonly proxies: ProxyList }

/** Most `X-Forwarded-For` entries ever read, from the right: the header is the client's to lengthen. */
export const MAX_PROXY_HOPS = 32

const USAGE = `must be false, true, a number of proxy hops from 1 to ${MAX_PROXY_HOPS}, or a comma-separated list of the proxies' addresses and CIDR ranges (10.0.0.0/8,::1)`

/** TRUST_PROXY's value, or the reason it is refused (a sentence after "TRUST_PROXY "). */
export function parseTrustProxy(raw: string | undefined): TrustProxy | { invalid: string } {
  const text = raw?.trim() ?? ''
  if (text === '' || /^(0|false|no|off)$/i.test(text)) return false
  if (/^(true|yes|on)$/i.test(text)) return { hops: 1 }
  if (/^\d+$/.test(text)) {
    const hops = Number(text)
    return hops >= 1 && hops <= MAX_PROXY_HOPS ? { hops } : { invalid: `${USAGE}, got ${raw}` }
  }
  const entries: IpEntry[] = []
  for (const item of text.split(',')) {
    const entry = parseIpEntry(item.trim())
    if (!entry) return { invalid: `${USAGE}; "${item.trim()}" is neither, in ${raw}` }
    entries.push(entry)
  }
  return { proxies: new ProxyList(entries) }
}

/**
 * The trusted proxies' addresses and ranges. IPv4 ranges are compared as numbers (a few ns a range); IPv6 ones go
 * to node:net's BlockList. An IPv4-mapped entry (`::ffff:10.0.0.0/104`) is the IPv4 range it maps, and an
 * IPv4-mapped address is checked as the IPv4 address it is.
 */
class ProxyList {
  // pairs: network, mask
  readonly #ipv4: number[] = []
  #ipv6: BlockList | undefined

  constructor(entries: readonly IpEntry[]) {
    for (const entry of entries) {
      const ipv4 = asIPv4(entry)
      if (ipv4) {
        const mask = ipv4.prefix === 0 ? 0 : (~0 << (32 - ipv4.prefix)) >>> 0
        this.#ipv4.push((ipv4Number(ipv4.address) & mask) >>> 0, mask)
      } else {
        this.#ipv6 ??= new (loadNet().BlockList)()
        if (entry.prefix === undefined) this.#ipv6.addAddress(entry.address, 'ipv6')
        else this.#ipv6.addSubnet(entry.address, entry.prefix, 'ipv6')
      }
    }
  }

  /** Whether `ip` (any text: not an address is not a proxy) is one of the proxies. */
  has(ip: string): boolean {
    const ipv4 = ipv4Number(unmapIPv4(ip))
    if (ipv4 >= 0) {
      for (let i = 0; i < this.#ipv4.length; i += 2) if (((ipv4 & this.#ipv4[i + 1]!) >>> 0) === this.#ipv4[i]) return true
      return false
    }
    return this.#ipv6 !== undefined && ipFamily(ip) === 'ipv6' && this.#ipv6.check(ip, 'ipv6')
  }
}

/** An IPv4 entry, or an IPv4-mapped one (a /96 or longer), as an IPv4 address and prefix; else undefined. */
function asIPv4(entry: IpEntry): { address: string; prefix: number } | undefined {
  if (entry.family === 'ipv4') return { address: entry.address, prefix: entry.prefix ?? 32 }
  const address = unmapIPv4(entry.address)
  if (address === entry.address || (entry.prefix !== undefined && entry.prefix < 96)) return undefined
  return { address, prefix: (entry.prefix ?? 128) - 96 }
}

/** Whether forwarded headers from this socket peer are believed: with a hop count always, with a list if it is on it. */
export function trustsPeer(peer: string, trust: TrustProxy): boolean {
  return trust !== false && (trust.proxies === undefined || trust.proxies.has(peer))
}

/**
 * The client's address behind trusted proxies: `X-Forwarded-For` with the socket's peer appended, read from the
 * right, skipping trusted proxies; the first address that is not one is the client (a hop count: the entry
 * `hops` places left of the peer). Entries left of it are the client's own words and never read. An entry that
 * is not a bare address (a port, a name, `unknown`, an empty item) ends the walk: the client is the last good
 * address read, possibly the peer.
 */
export function clientAddress(peer: string, forwardedFor: string | null, trust: TrustedProxies): string {
  return trustsPeer(peer, trust) ? (forwardedClient(forwardedFor, trust) ?? peer) : peer
}

/**
 * `clientAddress` once the peer is trusted, without it: undefined when no address was read (no header, or its
 * right-most entry is not an address), the peer's case. The peer costs Bun ~2 µs to look up: with a hop count
 * it is needed only then. Reads at most MAX_PROXY_HOPS entries and allocates only the ones it reads.
 */
export function forwardedClient(forwardedFor: string | null, trust: TrustedProxies): string | undefined {
  if (forwardedFor === null) return undefined
  const proxies = trust.proxies
  const limit = proxies ? MAX_PROXY_HOPS : trust.hops
  let client: string | undefined
  let end = forwardedFor.length
  for (let read = 0; end > 0 && read < limit; read++) {
    const comma = forwardedFor.lastIndexOf(',', end - 1)
    const entry = trimmed(forwardedFor, comma + 1, end)
    end = comma
    if (!ipFamily(entry)) return client
    client = unmapIPv4(entry)
    if (proxies && !proxies.has(client)) return client
  }
  return client
}

/** `text[start, end)` without the spaces and tabs around it. */
function trimmed(text: string, start: number, end: number): string {
  while (start < end && isBlank(text.charCodeAt(start))) start++
  while (end > start && isBlank(text.charCodeAt(end - 1))) end--
  return text.slice(start, end)
}

const isBlank = (code: number): boolean => code === 32 || code === 9
