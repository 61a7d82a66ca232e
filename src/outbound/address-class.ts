import { parseIpv4, parseIpv6 } from '../net/ip'

/**
 * What kind of address a host is, for the outbound guard (`./guard.ts`): `blocked` (link-local, cloud metadata
 * services: never dialled), `private` (loopback, private ranges, CGNAT, reserved, multicast, unspecified: only with
 * `ChannelPrivateNetworksAllowed`) or `public`. IPv4 inside IPv6 (mapped, SIIT, compatible, NAT64, 6to4, Teredo) is
 * judged by the IPv4 it carries. Pure functions: no lookup here.
 */

/** What an address is, for this check: `blocked` is never allowed, `private` only with the option on. */
type AddressClass = 'public' | 'private' | 'blocked'

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

/** IETF protocol assignments, benchmarking, documentation ranges. */
const RESERVED_V4: [number, number][] = [
  [ipv4(192, 0, 0, 0), 24],
  [ipv4(198, 18, 0, 0), 15],
  [ipv4(192, 0, 2, 0), 24],
  [ipv4(198, 51, 100, 0), 24],
  [ipv4(203, 0, 113, 0), 24],
]

function ipv4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0
}

function inV4(n: number, base: number, bits: number): boolean {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0
  return ((n & mask) >>> 0) === base
}

function classifyIpv4(n: number): AddressVerdict {
  if (inV4(n, ipv4(169, 254, 0, 0), 16)) return { class: 'blocked', kind: n === ipv4(169, 254, 169, 254) ? 'the cloud metadata address' : 'a link-local address' }
  const metadata = METADATA_V4.get(n)
  if (metadata) return { class: 'blocked', kind: metadata }
  if (inV4(n, ipv4(127, 0, 0, 0), 8)) return { class: 'private', kind: 'a loopback address' }
  if (inV4(n, 0, 8)) return { class: 'private', kind: 'a "this host" address (0.0.0.0/8)' }
  if (inV4(n, ipv4(10, 0, 0, 0), 8) || inV4(n, ipv4(172, 16, 0, 0), 12) || inV4(n, ipv4(192, 168, 0, 0), 16)) return { class: 'private', kind: 'a private address' }
  if (inV4(n, ipv4(100, 64, 0, 0), 10)) return { class: 'private', kind: 'a shared (carrier-grade NAT) address' }
  if (RESERVED_V4.some(([base, bits]) => inV4(n, base, bits))) return { class: 'private', kind: 'a reserved address' }
  if (n >= ipv4(224, 0, 0, 0)) return { class: 'private', kind: 'a multicast or reserved address' }
  return PUBLIC
}

function classifyIpv6(g: number[]): AddressVerdict {
  const v4 = (hi: number, lo: number) => ((hi << 16) | lo) >>> 0
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  // IPv4 inside IPv6: mapped (::ffff:a.b.c.d), SIIT (::ffff:0:a.b.c.d), compatible (::a.b.c.d), NAT64, 6to4
  if (zero(0, 5) && g[5] === 0xffff) return classifyIpv4(v4(g[6]!, g[7]!))
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return classifyIpv4(v4(g[6]!, g[7]!))
  if (g[0] === 0x64 && g[1] === 0xff9b && (zero(2, 6) || g[2] === 1)) return classifyIpv4(v4(g[6]!, g[7]!))
  if (g[0] === 0x2002) return classifyIpv4(v4(g[1]!, g[2]!))
  // Teredo carries the client's IPv4 inverted in its last 32 bits
  if (g[0] === 0x2001 && g[1] === 0) return classifyIpv4(~v4(g[6]!, g[7]!) >>> 0)
  if (zero(0, 6) && (g[6] !== 0 || g[7]! > 1)) return classifyIpv4(v4(g[6]!, g[7]!))
  if (zero(0, 7) && g[7] === 1) return { class: 'private', kind: 'a loopback address' }
  if (zero(0, 8)) return { class: 'private', kind: 'the unspecified address' }
  if ((g[0]! & 0xffc0) === 0xfe80) return { class: 'blocked', kind: 'a link-local address' }
  if (g[0] === 0xfd00 && g[1] === 0x0ec2) return { class: 'blocked', kind: 'the AWS instance metadata service (fd00:ec2::/32)' }
  if ((g[0]! & 0xfe00) === 0xfc00) return { class: 'private', kind: 'a private (unique local) address' }
  if ((g[0]! & 0xffc0) === 0xfec0) return { class: 'private', kind: 'a site-local address' }
  if ((g[0]! & 0xff00) === 0xff00) return { class: 'private', kind: 'a multicast address' }
  if (g[0] === 0x2001 && g[1] === 0x0db8) return { class: 'private', kind: 'a documentation address' }
  if (g[0] === 0x0100 && zero(1, 4)) return { class: 'private', kind: 'a discard-only address' }
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
  if (verdict.class === 'blocked') return `${where}: link-local and cloud metadata addresses are never dialled`
  return `${where}: private and loopback addresses are off (ChannelPrivateNetworksAllowed)`
}
