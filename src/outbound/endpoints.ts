/**
 * PROVIDER_ENDPOINTS: the operator sends every call for a host somewhere else (a mirror, a regional proxy, a test's
 * fake on loopback). A JSON object of host → base URL: `{"api.openai.com": "http://127.0.0.1:4010"}`; a key
 * `*.googleapis.com` matches every subdomain. The call keeps its path and query, after the target's own path
 * (`https://api.openai.com/v1/models` → `http://127.0.0.1:4010/v1/models`). The target is the operator's choice,
 * so it may be private or loopback whatever `ChannelPrivateNetworksAllowed` says; link-local and metadata
 * addresses stay refused, and the connection is still pinned to the address checked.
 *
 * A key may also name a provider (`"github"`, `"stripe"`, …): it stands for every host of that provider
 * (`PROVIDER_HOSTS`), so one entry moves its API, its OAuth pages and its checkout alike.
 */

/** The hosts behind each provider name PROVIDER_ENDPOINTS accepts (the browser's pages and the server's API). */
const PROVIDER_HOSTS: Readonly<Record<string, readonly string[]>> = {
  github: ['github.com', 'api.github.com'],
  discord: ['discord.com'],
  linuxdo: ['connect.linux.do'],
  telegram: ['telegram.org', 'api.telegram.org', 'oauth.telegram.org'],
  turnstile: ['challenges.cloudflare.com'],
  stripe: ['api.stripe.com', 'checkout.stripe.com'],
  creem: ['api.creem.io', 'test-api.creem.io'],
}

export interface EndpointMap {
  /** the URL the call goes to, and whether the operator chose it (PROVIDER_ENDPOINTS matched) */
  rewrite(url: URL): { url: URL; trusted: boolean }
}

export const NO_ENDPOINTS: EndpointMap = { rewrite: (url) => ({ url, trusted: false }) }

const HOST = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/

/** Parse PROVIDER_ENDPOINTS (its text); throws Error naming what is wrong. '' or unset: no redirection. */
export function parseProviderEndpoints(text: string | undefined): Map<string, URL> {
  const map = new Map<string, URL>()
  const explicit = new Set<string>()
  if (!text?.trim()) return map
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    throw new Error('PROVIDER_ENDPOINTS is not JSON: give {"api.openai.com": "http://127.0.0.1:4010", …}')
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('PROVIDER_ENDPOINTS must be a JSON object of host → base URL')
  for (const [key, value] of Object.entries(raw)) {
    const name = key.trim().toLowerCase()
    const hosts = PROVIDER_HOSTS[name] ?? [name]
    if (!PROVIDER_HOSTS[name] && !HOST.test(name)) {
      throw new Error(`PROVIDER_ENDPOINTS: "${key}" is not a host name (api.openai.com, *.googleapis.com) or a provider (${Object.keys(PROVIDER_HOSTS).join(', ')})`)
    }
    if (typeof value !== 'string') throw new Error(`PROVIDER_ENDPOINTS: the target of ${key} must be a URL string`)
    let target: URL
    try {
      target = new URL(value)
    } catch {
      throw new Error(`PROVIDER_ENDPOINTS: the target of ${key} is not a URL`)
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`PROVIDER_ENDPOINTS: the target of ${key} must be http or https`)
    if (target.username || target.password || target.search || target.hash) throw new Error(`PROVIDER_ENDPOINTS: the target of ${key} must have no credentials, query or fragment`)
    // an explicit host entry wins over the provider name that also covers it
    for (const host of hosts) {
      if (hosts.length > 1 || host !== name) {
        if (!explicit.has(host)) map.set(host, target)
      } else {
        map.set(host, target)
        explicit.add(host)
      }
    }
  }
  return map
}

/** The redirection PROVIDER_ENDPOINTS describes: exact hosts first, then the longest `*.suffix`. */
export function endpointMap(targets: ReadonlyMap<string, URL>): EndpointMap {
  if (targets.size === 0) return NO_ENDPOINTS
  const wildcards = [...targets.keys()].filter((k) => k.startsWith('*.')).sort((a, b) => b.length - a.length)
  const targetOf = (host: string): URL | undefined => {
    const name = host.replace(/\.$/, '')
    const exact = targets.get(name)
    if (exact) return exact
    const wildcard = wildcards.find((w) => name.endsWith(w.slice(1)))
    return wildcard ? targets.get(wildcard) : undefined
  }
  return {
    rewrite(url) {
      const target = targetOf(url.hostname)
      if (!target) return { url, trusted: false }
      const path = target.pathname.replace(/\/+$/, '') + url.pathname
      return { url: new URL(`${target.origin}${path}${url.search}`), trusted: true }
    },
  }
}
