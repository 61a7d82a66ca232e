/**
 * Where a channel may send its key (SSRF). Never to a link-local address or a cloud metadata service: an admin
 * could otherwise point a channel at 169.254.169.254 (or metadata.google.internal, 100.100.100.200,
 * fd00:ec2::254 …) and read the answer back through the channel test or fetch_models. Private ranges and
 * loopback (Ollama, vLLM on the LAN) are allowed unless root turns `ChannelPrivateNetworksAllowed` off.
 *
 * Checked on channel create and update (the base URL, and what its host resolves to then) and before every
 * upstream connection (a host can resolve elsewhere later): IP literals once, hostnames through a DNS lookup
 * remembered for 30 s, so the relay's hot path is one map lookup. Redirects are never followed (the fetches use
 * `redirect: 'manual'`, and a 3xx is a failure that names its target).
 */

/** What an address is, for this check: `blocked` is never allowed, `private` only with the option on. */
export type AddressClass = 'public' | 'private' | 'blocked'

export interface AddressVerdict {
  class: AddressClass
  /** what kind of address it is, for the error message */
  kind: string
}

const PUBLIC: AddressVerdict = { class: 'public', kind: 'public' }

/** Metadata services reached by name (lowercase, no trailing dot). */
const METADATA_HOSTS = new Set([
  'metadata.google.internal', // GCP
  'metadata.goog',
  'metadata', // GCP and Azure short names, resolved through the search domain
  'metadata.azure.internal',
  'instance-data', // AWS
  'instance-data.ec2.internal',
  'metadata.tencentyun.com', // Tencent Cloud
  'metadata.platformequinix.com',
])

/** The few metadata services on addresses that are not link-local. */
const METADATA_V4 = new Map<number, string>([
  [ipv4(100, 100, 100, 200), 'the Alibaba Cloud metadata service'],
  [ipv4(192, 0, 0, 192), 'the Oracle Cloud metadata service'],
])

function ipv4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0
}

function inV4(n: number, base: number, bits: number): boolean {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0
  return ((n & mask) >>> 0) === base
}

/** Dotted IPv4 (four decimal parts, as the URL parser and DNS give it) → 32-bit number, or undefined. */
export function parseIpv4(text: string): number | undefined {
  const parts = text.split('.')
  if (parts.length !== 4) return undefined
  let n = 0
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined
    const v = Number(part)
    if (v > 255) return undefined
    n = n * 256 + v
  }
  return n
}

export function classifyIpv4(n: number): AddressVerdict {
  if (inV4(n, ipv4(169, 254, 0, 0), 16)) return { class: 'blocked', kind: n === ipv4(169, 254, 169, 254) ? 'the cloud metadata address' : 'a link-local address' }
  const metadata = METADATA_V4.get(n)
  if (metadata) return { class: 'blocked', kind: metadata }
  if (inV4(n, ipv4(127, 0, 0, 0), 8)) return { class: 'private', kind: 'a loopback address' }
  if (inV4(n, 0, 8)) return { class: 'private', kind: 'a "this host" address (0.0.0.0/8)' }
  if (inV4(n, ipv4(10, 0, 0, 0), 8) || inV4(n, ipv4(172, 16, 0, 0), 12) || inV4(n, ipv4(192, 168, 0, 0), 16)) return { class: 'private', kind: 'a private address' }
  if (inV4(n, ipv4(100, 64, 0, 0), 10)) return { class: 'private', kind: 'a shared (carrier-grade NAT) address' }
  if (inV4(n, ipv4(192, 0, 0, 0), 24) || inV4(n, ipv4(198, 18, 0, 0), 15)) return { class: 'private', kind: 'a reserved address' }
  if (n >= ipv4(224, 0, 0, 0)) return { class: 'private', kind: 'a multicast or reserved address' }
  return PUBLIC
}

/** IPv6 text (no brackets; `::`, a dotted IPv4 tail and a `%zone` allowed) → eight 16-bit groups, or undefined. */
export function parseIpv6(text: string): number[] | undefined {
  if (!text.includes(':')) return undefined
  let s = text.toLowerCase()
  const zone = s.indexOf('%')
  if (zone !== -1) s = s.slice(0, zone)
  const tail: number[] = []
  const lastColon = s.lastIndexOf(':')
  if (s.includes('.', lastColon)) {
    const v4 = parseIpv4(s.slice(lastColon + 1))
    if (v4 === undefined) return undefined
    tail.push(v4 >>> 16, v4 & 0xffff)
    s = s.slice(0, lastColon + 1)
    if (!s.endsWith('::')) s = s.slice(0, -1)
  }
  const halves = s.split('::')
  if (halves.length > 2) return undefined
  const read = (part: string) => (part === '' ? [] : part.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)))
  const head = read(halves[0]!)
  const rest = halves.length === 2 ? read(halves[1]!) : []
  if (head.some(Number.isNaN) || rest.some(Number.isNaN)) return undefined
  const want = 8 - tail.length
  if (halves.length === 1) return head.length === want ? [...head, ...tail] : undefined
  const fill = want - head.length - rest.length
  if (fill < 1) return undefined
  return [...head, ...Array<number>(fill).fill(0), ...rest, ...tail]
}

export function classifyIpv6(g: number[]): AddressVerdict {
  const v4 = (hi: number, lo: number) => ((hi << 16) | lo) >>> 0
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  // IPv4 inside IPv6: mapped (::ffff:a.b.c.d), SIIT (::ffff:0:a.b.c.d), compatible (::a.b.c.d), NAT64, 6to4
  if (zero(0, 5) && g[5] === 0xffff) return classifyIpv4(v4(g[6]!, g[7]!))
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return classifyIpv4(v4(g[6]!, g[7]!))
  if (g[0] === 0x64 && g[1] === 0xff9b && (zero(2, 6) || g[2] === 1)) return classifyIpv4(v4(g[6]!, g[7]!))
  if (g[0] === 0x2002) return classifyIpv4(v4(g[1]!, g[2]!))
  if (zero(0, 6) && (g[6] !== 0 || g[7]! > 1)) return classifyIpv4(v4(g[6]!, g[7]!))
  if (zero(0, 7) && g[7] === 1) return { class: 'private', kind: 'a loopback address' }
  if (zero(0, 8)) return { class: 'private', kind: 'the unspecified address' }
  if ((g[0]! & 0xffc0) === 0xfe80) return { class: 'blocked', kind: 'a link-local address' }
  if (g[0] === 0xfd00 && g[1] === 0x0ec2) return { class: 'blocked', kind: 'the AWS instance metadata service (fd00:ec2::/32)' }
  if ((g[0]! & 0xfe00) === 0xfc00) return { class: 'private', kind: 'a private (unique local) address' }
  if ((g[0]! & 0xffc0) === 0xfec0) return { class: 'private', kind: 'a site-local address' }
  if ((g[0]! & 0xff00) === 0xff00) return { class: 'private', kind: 'a multicast address' }
  return PUBLIC
}

/** An IP literal (IPv4 dotted, IPv6 with or without brackets) → its class; undefined when `host` is a name. */
export function classifyIp(host: string): AddressVerdict | undefined {
  const v4 = parseIpv4(host)
  if (v4 !== undefined) return classifyIpv4(v4)
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
  const v6 = parseIpv6(bare)
  return v6 ? classifyIpv6(v6) : undefined
}

/** A host name's class before any lookup: metadata names, `localhost`; undefined when only DNS can tell. */
export function classifyName(host: string): AddressVerdict | undefined {
  const name = host.toLowerCase().replace(/\.+$/, '')
  if (METADATA_HOSTS.has(name)) return { class: 'blocked', kind: 'a cloud metadata host name' }
  if (name === 'localhost' || name.endsWith('.localhost')) return { class: 'private', kind: 'a loopback name' }
  return undefined
}

/** Why `verdict` may not be connected to, or undefined when it may. */
export function refusal(host: string, verdict: AddressVerdict, allowPrivate: boolean, resolvedTo?: string): string | undefined {
  if (verdict.class === 'public' || (verdict.class === 'private' && allowPrivate)) return undefined
  const where = resolvedTo ? `${host} resolves to ${resolvedTo}, ${verdict.kind}` : `${host} is ${verdict.kind}`
  if (verdict.class === 'blocked') return `${where}: channels may not point at link-local or cloud metadata addresses`
  return `${where}: private and loopback addresses are off for channels (ChannelPrivateNetworksAllowed)`
}

/** The host of a URL (brackets kept for IPv6), from an already normalized URL string: no parsing per request. */
export function hostOf(url: string): string {
  const start = url.indexOf('//') + 2
  let end = url.indexOf('/', start)
  if (end === -1) end = url.length
  const authority = url.slice(start, end)
  if (authority.startsWith('[')) return authority.slice(0, authority.indexOf(']') + 1)
  const colon = authority.lastIndexOf(':')
  return (colon === -1 ? authority : authority.slice(0, colon)).toLowerCase()
}

export type Lookup = (host: string) => Promise<string[]>

/** A lookup that takes longer than this fails (connect time: refused; on save: no refusal). */
const LOOKUP_TIMEOUT_MS = 5_000

const bunLookup: Lookup = async (host) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('DNS lookup timed out')), LOOKUP_TIMEOUT_MS)))
  try {
    return (await Promise.race([Bun.dns.lookup(host, { family: 0 }), timeout])).map((r) => r.address)
  } finally {
    clearTimeout(timer)
  }
}

/** The worst class among a host's addresses, and which address that was. */
function worstOf(addresses: string[]): { verdict: AddressVerdict; address: string } {
  let worst: { verdict: AddressVerdict; address: string } = { verdict: PUBLIC, address: addresses[0] ?? '' }
  for (const address of addresses) {
    const verdict = classifyIp(address) ?? PUBLIC
    if (rank(verdict) > rank(worst.verdict)) worst = { verdict, address }
  }
  return worst
}

const rank = (v: AddressVerdict) => (v.class === 'blocked' ? 2 : v.class === 'private' ? 1 : 0)

/** Thrown before an upstream connection that must not be made; nothing was sent. */
export class UpstreamRefused extends Error {}

interface HostEntry {
  host: string
  verdict: AddressVerdict
  /** the address that decided the verdict, when a lookup did */
  address?: string
  /** lookup failed: refused, with this reason */
  failure?: string
  /** performance.now() of the last lookup; Infinity for literals and known names */
  checkedAt: number
  pending?: Promise<void>
}

/** How long a lookup's answer is trusted (Bun's own DNS cache keeps entries at most as long). */
export const LOOKUP_TTL_MS = 30_000
/** A failed lookup is retried sooner. */
const FAILED_TTL_MS = 2_000

export interface AddressGuard {
  /**
   * Resolves when `url` may be connected to; throws UpstreamRefused when not. Synchronous (undefined) when the
   * answer is known: IP literals, and hosts looked up less than 30 s ago.
   */
  check(url: string, allowPrivate: boolean): Promise<void> | undefined
  /** The same for a base URL being saved: a refusal is a message, a failed lookup is no refusal (the host may come later). */
  refusalFor(url: string, allowPrivate: boolean): Promise<string | undefined>
}

export function createAddressGuard(lookup: Lookup = bunLookup, now: () => number = () => performance.now()): AddressGuard {
  const byUrl = new Map<string, HostEntry>()
  const byHost = new Map<string, HostEntry>()

  const entryOf = (host: string): HostEntry => {
    let entry = byHost.get(host)
    if (entry) return entry
    const known = classifyIp(host) ?? classifyName(host)
    entry = known ? { host, verdict: known, checkedAt: Infinity } : { host, verdict: PUBLIC, checkedAt: -Infinity }
    if (byHost.size >= 1024) byHost.clear()
    byHost.set(host, entry)
    return entry
  }

  const fresh = (entry: HostEntry) =>
    entry.checkedAt === Infinity || now() - entry.checkedAt < (entry.failure ? FAILED_TTL_MS : LOOKUP_TTL_MS)

  const refresh = (entry: HostEntry): Promise<void> =>
    (entry.pending ??= lookup(entry.host.replace(/^\[|\]$/g, ''))
      .then(
        (addresses) => {
          if (addresses.length === 0) throw new Error('no address')
          const worst = worstOf(addresses)
          entry.verdict = worst.verdict
          entry.address = worst.address
          entry.failure = undefined
        },
        (error: unknown) => {
          entry.failure = `cannot resolve ${entry.host}: ${(error as Error)?.message ?? error}`
        },
      )
      .finally(() => {
        entry.checkedAt = now()
        entry.pending = undefined
      }))

  const judge = (entry: HostEntry, allowPrivate: boolean): void => {
    if (entry.failure) throw new UpstreamRefused(`upstream address refused: ${entry.failure}`)
    const why = refusal(entry.host, entry.verdict, allowPrivate, entry.address)
    if (why) throw new UpstreamRefused(`upstream address refused: ${why}`)
  }

  return {
    check(url, allowPrivate) {
      let entry = byUrl.get(url)
      if (!entry) {
        entry = entryOf(hostOf(url))
        if (byUrl.size >= 4096) byUrl.clear()
        byUrl.set(url, entry)
      }
      if (fresh(entry)) {
        judge(entry, allowPrivate)
        return undefined
      }
      const e = entry
      return refresh(e).then(() => judge(e, allowPrivate))
    },

    async refusalFor(url, allowPrivate) {
      const host = hostOf(url)
      const known = classifyIp(host) ?? classifyName(host)
      if (known) return refusal(host, known, allowPrivate)
      const entry = entryOf(host)
      await refresh(entry)
      if (entry.failure) return undefined
      return refusal(host, entry.verdict, allowPrivate, entry.address)
    },
  }
}

/** The process's guard: the relay, the channel test and fetch_models share its lookups. */
export const addressGuard = createAddressGuard()

export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304
}

/** Why a 3xx answer from an upstream is a failure: redirects could carry the key to another host. */
export function redirectMessage(status: number, location: string | null): string {
  return `upstream ${status} redirected to ${location || '(no location)'}: redirects are not followed (set the channel's base_url to the final address)`
}

/**
 * `fetch` for the channel test and fetch_models: the target checked first (UpstreamRefused, nothing sent), no
 * redirect followed (a 3xx throws UpstreamRefused naming where it pointed).
 */
export function guardedFetch(allowPrivate: () => boolean, guard: AddressGuard = addressGuard) {
  return async (url: string, init?: RequestInit): Promise<Response> => {
    await guard.check(url, allowPrivate())
    const response = await fetch(url, { ...init, redirect: 'manual' })
    if (isRedirect(response.status)) {
      void response.body?.cancel().catch(() => {})
      throw new UpstreamRefused(redirectMessage(response.status, response.headers.get('location')))
    }
    return response
  }
}
