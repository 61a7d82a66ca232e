import { loadNet, parseIpEntry } from '../../net/ip'

export { parseIpEntry } from '../../net/ip'

/**
 * A token's allow list: IPv4/IPv6 addresses and CIDR ranges, separated by newlines or commas.
 * Stored normalized (one entry per line); an empty list allows every client.
 */
export function splitIpList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter(Boolean)
}

/** Check a user-supplied list; returns the normalized text or the first entry that is not valid. */
export function normalizeIpList(text: string): { ok: true; value: string } | { ok: false; bad: string } {
  const entries = [...new Set(splitIpList(text))]
  const bad = entries.find((entry) => !parseIpEntry(entry))
  return bad === undefined ? { ok: true, value: entries.join('\n') } : { ok: false, bad }
}

export interface IpMatcher {
  allows(ip: string): boolean
}

/**
 * Build a matcher for a stored list. An empty list allows everyone; a non-empty list whose entries are all
 * unreadable (hand-edited rows) allows no one rather than silently opening up.
 */
export function ipMatcher(text: string): IpMatcher {
  const entries = splitIpList(text)
  if (entries.length === 0) return { allows: () => true }
  const list = new (loadNet().BlockList)()
  for (const entry of entries) {
    const parsed = parseIpEntry(entry)
    if (!parsed) continue
    if (parsed.prefix === undefined) list.addAddress(parsed.address, parsed.family)
    else list.addSubnet(parsed.address, parsed.prefix, parsed.family)
  }
  return {
    allows(ip) {
      const { isIPv4, isIPv6 } = loadNet()
      const family = isIPv4(ip) ? 'ipv4' : isIPv6(ip) ? 'ipv6' : undefined
      return family !== undefined && list.check(ip, family)
    },
  }
}
