import { planOf, planPath } from './coding-plans'
import type { AuthStyle, OperationEndpoint, Provider, UpstreamProtocolId } from './types'
import { joinUrl } from './url'

export interface UpstreamTarget {
  url: string
  headers: Record<string, string>
}

export interface UpstreamOptions {
  /** The channel's `other` field: Azure takes its api-version from here (plain text or `{"api_version": …}`). */
  other?: string
}

function authHeaders(style: AuthStyle, key: string): Record<string, string> {
  if (!key) return {}
  switch (style) {
    case 'bearer':
      return { authorization: `Bearer ${key}` }
    case 'x-api-key':
      return { 'x-api-key': key }
    case 'api-key':
      return { 'api-key': key }
    case 'x-goog-api-key':
      return { 'x-goog-api-key': key }
  }
}

/**
 * URL and headers for one upstream call. Used by the relay and by channel test / fetch_models, so the
 * two can never disagree. `baseUrl` '' means the provider's default root.
 */
export function upstreamRequest(
  provider: Provider,
  baseUrl: string,
  protocol: UpstreamProtocolId,
  model: string,
  stream: boolean,
  key: string,
  options: UpstreamOptions = {},
): UpstreamTarget {
  const endpoint = provider.endpoints[protocol]
  if (!endpoint || !provider.protocols.includes(protocol)) {
    throw new Error(`provider ${provider.name} does not speak ${protocol}`)
  }
  // a Coding Plan's base URL: its own path for the protocol (its keys work nowhere else)
  const path = planPath(provider, baseUrl, protocol) ?? (stream && endpoint.streamPath ? endpoint.streamPath : endpoint.path)
  return {
    url: urlOf(provider, baseUrl, path, model, options.other),
    headers: {
      'content-type': 'application/json',
      ...provider.headers,
      ...endpoint.headers,
      ...authHeaders(endpoint.auth ?? provider.auth, key),
    },
  }
}

/** URL and headers for one call of a non-chat operation (embeddings, rerank, images, audio …). */
export function operationRequest(
  provider: Provider,
  baseUrl: string,
  endpoint: OperationEndpoint,
  model: string,
  key: string,
  options: UpstreamOptions = {},
): UpstreamTarget {
  return {
    url: urlOf(provider, baseUrl, endpoint.path, model, options.other),
    headers: { ...provider.headers, ...endpoint.headers, ...authHeaders(endpoint.auth ?? provider.auth, key) },
  }
}

/** URL and headers for the provider's model list (GET). */
export function modelListRequest(provider: Provider, baseUrl: string, key: string, options: UpstreamOptions = {}): UpstreamTarget {
  const plan = planOf(provider, baseUrl)
  const spec = plan ? plan.modelListPath && { ...provider.modelList!, path: plan.modelListPath } : provider.modelList
  if (!spec) throw new Error(`${plan?.name ?? `provider ${provider.name}`} has no model list endpoint`)
  const protocol = spec.protocol ?? provider.protocols[0]!
  const endpoint = provider.endpoints[protocol]
  return {
    url: expand(joinUrl(rootOf(provider, baseUrl), spec.path), provider, '', options),
    headers: { ...provider.headers, ...endpoint?.headers, ...authHeaders(endpoint?.auth ?? provider.auth, key) },
  }
}

function rootOf(provider: Provider, baseUrl: string): string {
  const root = baseUrl || provider.defaultBaseUrl
  if (!root) throw new Error(`provider ${provider.name} needs a base URL`)
  return root
}

/** The api-version a channel asks for: its `other` as plain text or JSON `{api_version}`, else the default. */
function apiVersionOf(provider: Provider, other = ''): string {
  const text = other.trim()
  if (text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as { api_version?: unknown }
      if (typeof parsed.api_version === 'string' && parsed.api_version) return parsed.api_version
    } catch {}
  } else if (text) {
    return text
  }
  return provider.defaultApiVersion ?? ''
}

/**
 * The URL is a pure function of these inputs and the same few recur on every request: remembered per
 * provider (the join parses the base with `new URL` and compares path segments), cleared past a bound.
 */
const urls = new WeakMap<Provider, Map<string, string>>()
function urlOf(provider: Provider, baseUrl: string, path: string, model: string, other = ''): string {
  let known = urls.get(provider)
  if (!known) urls.set(provider, (known = new Map()))
  const key = `${baseUrl}\n${path}\n${model}\n${other}`
  let url = known.get(key)
  if (url === undefined) {
    url = expand(joinUrl(rootOf(provider, baseUrl), path), provider, model, { other })
    if (known.size >= 1024) known.clear()
    known.set(key, url)
  }
  return url
}

function expand(url: string, provider: Provider, model: string, options: UpstreamOptions): string {
  return url
    .replaceAll('{model}', encodeURIComponent(model).replaceAll('%2F', '/'))
    .replaceAll('{apiVersion}', encodeURIComponent(apiVersionOf(provider, options.other)))
}
