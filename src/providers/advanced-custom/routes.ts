import type { ProtocolId, UpstreamProtocolId } from '../../protocols/types'

/**
 * new-api's AdvancedCustom (type 58) routes, as its channels keep them (`advanced_custom.advanced_routes` in the
 * channel's settings): each names the client path it serves (`incoming_path`), where it goes (`upstream_path`: a path
 * under the base URL or a whole URL, `{model}` the upstream model), the converter between the two wire formats, the
 * models it is for (`re:` a pattern) and how the key is sent (Bearer unless `auth` says header, query or none).
 */
export interface AdvancedRoute {
  incoming_path: string
  upstream_path: string
  converter?: string
  models?: string[]
  auth?: { type?: string; name?: string; value?: string }
}

/** The client path each protocol arrives on (Gemini's `{model}` and both of its verbs match). */
const INCOMING: Record<ProtocolId, string> = {
  'openai-chat': '/v1/chat/completions',
  anthropic: '/v1/messages',
  'openai-responses': '/v1/responses',
  gemini: '/v1beta/models/{model}:generateContent',
}

/** new-api's converter names: the client protocol they take and the upstream protocol they send. */
const CONVERTERS: Record<string, [ProtocolId, ProtocolId]> = {
  anthropic_messages_to_openai_chat_completions: ['anthropic', 'openai-chat'],
  openai_chat_completions_to_anthropic_messages: ['openai-chat', 'anthropic'],
  openai_chat_completions_to_openai_responses: ['openai-chat', 'openai-responses'],
  openai_responses_to_openai_chat_completions: ['openai-responses', 'openai-chat'],
  openai_responses_to_gemini_generate_content: ['openai-responses', 'gemini'],
  gemini_generate_content_to_openai_chat_completions: ['gemini', 'openai-chat'],
  openai_chat_completions_to_gemini_generate_content: ['openai-chat', 'gemini'],
}

const AUTH_TYPES = new Set(['none', 'header', 'query'])

/** The routes a channel's setting holds (malformed entries left out; `checkRoutes` refuses them on save). */
function routesOf(setting: Record<string, unknown> | undefined): AdvancedRoute[] {
  const config = setting?.advanced_custom as { advanced_routes?: unknown } | undefined
  const routes = Array.isArray(config?.advanced_routes) ? config.advanced_routes : []
  return routes.filter((r): r is AdvancedRoute => !!r && typeof r === 'object' && typeof r.incoming_path === 'string' && typeof r.upstream_path === 'string')
}

/** Why a channel's routes cannot be used, or undefined: new-api's checks on save. */
export function routeProblem(setting: Record<string, unknown> | undefined): string | undefined {
  const config = setting?.advanced_custom as { advanced_routes?: unknown } | undefined
  if (!config || !Array.isArray(config.advanced_routes) || config.advanced_routes.length === 0) return 'setting.advanced_custom.advanced_routes needs at least one route'
  for (const [i, raw] of config.advanced_routes.entries()) {
    const route = raw as Partial<AdvancedRoute>
    const where = `advanced_routes[${i}]`
    if (typeof route?.incoming_path !== 'string' || !clientOfPath(route.incoming_path)) return `${where}.incoming_path must be one of ${Object.values(INCOMING).join(', ')}`
    if (typeof route.upstream_path !== 'string' || !(/^\/[^/]/.test(route.upstream_path) || /^https?:\/\/[^/]/i.test(route.upstream_path))) return `${where}.upstream_path must be a path starting with / or an http(s) URL`
    const converter = route.converter?.trim() || 'none'
    if (converter !== 'none' && CONVERTERS[converter]?.[0] !== clientOfPath(route.incoming_path)) return `${where}.converter ${converter} does not take requests of ${route.incoming_path}`
    const auth = route.auth
    if (auth && (!AUTH_TYPES.has(auth.type?.trim() ?? '') || (auth.type !== 'none' && !auth.name?.trim()))) return `${where}.auth must be {"type": "none"} or {"type": "header"|"query", "name", "value"}`
    for (const model of route.models ?? []) if (model.startsWith('re:') && !compiles(model.slice(3))) return `${where}.models: ${model} is not a valid pattern`
  }
  return undefined
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern)
    return true
  } catch {
    return false
  }
}

function clientOfPath(path: string): ProtocolId | undefined {
  const trimmed = path.trim().replace(/:streamGenerateContent$/, ':generateContent')
  for (const [id, incoming] of Object.entries(INCOMING) as [ProtocolId, string][]) {
    if (trimmed === incoming) return id
    if (id === 'gemini' && /^\/v1beta\/models\/[^/]+:generateContent$/.test(trimmed)) return id
  }
  return undefined
}

function modelMatches(route: AdvancedRoute, model: string): boolean {
  if (!route.models?.length) return true
  return route.models.some((m) => (m.startsWith('re:') ? new RegExp(m.slice(3)).test(model) : m === model))
}

/** The first route serving this client protocol and model (new-api matches in order). */
export function routeFor(setting: Record<string, unknown> | undefined, client: ProtocolId, model: string): AdvancedRoute | undefined {
  return routesOf(setting).find((route) => clientOfPath(route.incoming_path) === client && modelMatches(route, model))
}

/** The protocol a route sends upstream: its converter's, or the client's own (`none`). */
export function upstreamOf(route: AdvancedRoute, client: ProtocolId): UpstreamProtocolId {
  const converter = route.converter?.trim() || 'none'
  return converter === 'none' ? client : (CONVERTERS[converter]?.[1] ?? client)
}
