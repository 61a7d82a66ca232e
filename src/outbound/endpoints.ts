/**
 * PROVIDER_ENDPOINTS: the operator sends every call for a host somewhere else (a mirror, a regional proxy, a test's
 * fake on loopback). A JSON object of host → base URL: `{"api.openai.com": "http://127.0.0.1:4010"}`; a key
 * `*.googleapis.com` matches every subdomain. The call keeps its path and query, after the target's own path
 * (`https://api.openai.com/v1/models` → `http://127.0.0.1:4010/v1/models`). The target is the operator's choice,
 * so it may be private or loopback whatever `ChannelPrivateNetworksAllowed` says; link-local and metadata
 * addresses stay refused, and the connection is still pinned to the address checked.
 */

export interface EndpointMap {
  /** the URL the call goes to, and whether the operator chose it (PROVIDER_ENDPOINTS matched) */
  rewrite(url: URL): { url: URL; trusted: boolean }
}

export const NO_ENDPOINTS: EndpointMap = { rewrite: (url) => ({ url, trusted: false }) }

const HOST = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/

/** Parse PROVIDER_ENDPOINTS (its text); throws Error naming what is wrong. '' or unset: no redirection. */
export function parseProviderEndpoints(text: string | undefined): Map<string, URL> {
  const map = new Map<string, URL>()
  if (!text?.trim()) return map
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    throw new Error('PROVIDER_ENDPOINTS is not JSON: give {"api.openai.com": "http://127.0.0.1:4010", …}')
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('PROVIDER_ENDPOINTS must be a JSON object of host → base URL')
  for (const [key, value] of Object.entries(raw)) {
    const host = key.trim().toLowerCase()
    if (!HOST.test(host)) throw new Error(`PROVIDER_ENDPOINTS: "${key}" is not a host name (api.openai.com, *.googleapis.com)`)
    if (typeof value !== 'string') throw new Error(`PROVIDER_ENDPOINTS: the target of ${key} must be a URL string`)
    let target: URL
    try {
      target = new URL(value)
    } catch {
      throw new Error(`PROVIDER_ENDPOINTS: the target of ${key} is not a URL`)
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`PROVIDER_ENDPOINTS: the target of ${key} must be http or https`)
    if (target.username || target.password || target.search || target.hash) throw new Error(`PROVIDER_ENDPOINTS: the target of ${key} must have no credentials, query or fragment`)
    map.set(host, target)
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
