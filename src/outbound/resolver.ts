/**
 * Host names → the one address the outbound guard connects to, and the class that decides whether it may. A name
 * is looked up once; every address it answers is judged (the worst decides), and the connection then goes to one
 * of those same addresses (`./fetch.ts`), so nothing resolves the name again between the check and the connect:
 * no DNS-rebinding window. Answers are kept 30 s (failures 2 s) in a bounded map, oldest forgotten first.
 */
import { type AddressVerdict, classifyIp, classifyName } from './address-class'

export type Lookup = (host: string) => Promise<string[]>

/** What a host is, for one connection. */
export interface Resolved {
  verdict: AddressVerdict
  /** the address to connect to (an IP literal, IPv6 without brackets); '' when the host is an IP literal itself */
  connectTo: string
  /** the address that decided the verdict, when a lookup did (for the refusal message) */
  decidedBy?: string
  /** the lookup failed: refused, with this reason */
  failure?: string
}

/** A lookup that takes longer than this fails (connect time: refused; on save: no refusal). */
const LOOKUP_TIMEOUT_MS = 5_000
/** How long a lookup's answer is trusted (Bun's own DNS cache keeps entries at most as long). */
const LOOKUP_TTL_MS = 30_000
/** A failed lookup is retried sooner. */
const FAILED_TTL_MS = 2_000
/** Hosts remembered at most: a channel's hosts are few, but every admin-typed name adds one. */
const MAX_HOSTS = 1024

const PUBLIC: AddressVerdict = { class: 'public', kind: 'public' }

const bunLookup: Lookup = async (host) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('DNS lookup timed out')), LOOKUP_TIMEOUT_MS)))
  try {
    return (await Promise.race([Bun.dns.lookup(host, { family: 0 }), timeout])).map((r) => r.address)
  } finally {
    clearTimeout(timer)
  }
}

const rank = (v: AddressVerdict) => (v.class === 'blocked' ? 2 : v.class === 'private' ? 1 : 0)

/**
 * The answer as one Resolved: the worst class among the addresses (and the name's own, `localhost`) decides; IPv4 is
 * dialled first when there is one.
 */
function judge(addresses: string[], named: AddressVerdict = PUBLIC): Resolved {
  let verdict = named
  let decidedBy: string | undefined
  for (const address of addresses) {
    const v = classifyIp(address) ?? PUBLIC
    if (rank(v) > rank(verdict)) (verdict = v), (decidedBy = address)
  }
  // no happy eyeballs on a pinned address: IPv4 is what a host without IPv6 routes can reach
  const connectTo = addresses.find((a) => !a.includes(':')) ?? addresses[0]!
  return { verdict, connectTo, decidedBy }
}

interface Entry {
  resolved?: Resolved
  /** performance.now() of the answer; Infinity for what needs no lookup */
  at: number
  pending?: Promise<Resolved>
  /** the name's own class (`localhost`), the floor of what its addresses can make it */
  named?: AddressVerdict
}

export interface Resolver {
  /**
   * The host (a URL's `hostname`: IPv6 in brackets) as this connection should see it. Synchronous when known: IP
   * literals, names of a fixed class, and answers younger than their TTL.
   */
  resolve(host: string): Resolved | Promise<Resolved>
}

export function createResolver(lookup: Lookup = bunLookup, now: () => number = () => performance.now()): Resolver {
  const entries = new Map<string, Entry>()

  const fresh = (entry: Entry) =>
    entry.resolved !== undefined && (entry.at === Infinity || now() - entry.at < (entry.resolved.failure ? FAILED_TTL_MS : LOOKUP_TTL_MS))

  const remember = (host: string, entry: Entry) => {
    entries.delete(host) // re-inserted: the map's order is the age of each answer
    if (entries.size >= MAX_HOSTS) entries.delete(entries.keys().next().value!)
    entries.set(host, entry)
  }

  const look = (host: string, entry: Entry): Promise<Resolved> => {
    const named = entry.named ?? PUBLIC
    return (entry.pending ??= lookup(host)
      .then(
        (addresses) => (addresses.length === 0 ? { verdict: named, connectTo: '', failure: `cannot resolve ${host}: no address` } : judge(addresses, named)),
        (error: unknown): Resolved => ({ verdict: named, connectTo: '', failure: `cannot resolve ${host}: ${(error as Error)?.message ?? error}` }),
      )
      .then((resolved) => {
        entry.resolved = resolved
        entry.at = now()
        entry.pending = undefined
        remember(host, entry)
        return resolved
      }))
  }

  return {
    resolve(host) {
      let entry = entries.get(host)
      if (entry && fresh(entry)) return entry.resolved!
      if (!entry) {
        // IP literals and metadata names are known without a lookup, for good; `localhost` is looked up like any name
        const literal = classifyIp(host)
        const named = literal ? undefined : classifyName(host)
        const known = literal ?? (named?.class === 'blocked' ? named : undefined)
        entry = known ? { resolved: { verdict: known, connectTo: '' }, at: Infinity } : { at: -Infinity, named }
        remember(host, entry)
        if (known) return entry.resolved!
      }
      return look(host, entry)
    },
  }
}

/** The process's resolver: the relay, the channel test, fetch_models and token endpoints share its answers. */
export const sharedResolver = createResolver()
