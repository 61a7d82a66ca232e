import { BadRequestError } from '../errors'
import { routeFor, routeProblem, upstreamOf, type AdvancedRoute } from './advanced-custom/routes'
import type { Provider } from './types'

/** Each protocol's usual headers when a route sends it (Anthropic's version; the rest only JSON). */
const PROTOCOL_HEADERS: Partial<Record<string, Record<string, string>>> = { anthropic: { 'anthropic-version': '2023-06-01' } }

/** Where a route sends one call: its path under the base URL (or its own URL), the model filled in, Gemini's stream verb. */
function routeUrl(route: AdvancedRoute, baseUrl: string, model: string, protocol: string, stream: boolean): URL {
  const path = route.upstream_path.trim().replaceAll('{model}', encodeURIComponent(model))
  let url: URL
  if (path.startsWith('/')) {
    if (!baseUrl) throw new Error('the channel needs a base URL for a route with a relative upstream_path')
    const base = new URL(baseUrl)
    const target = new URL(path, 'http://x')
    base.pathname = `${base.pathname.replace(/\/+$/, '')}/${target.pathname.replace(/^\/+/, '')}`
    base.search = target.search
    url = base
  } else {
    url = new URL(path)
  }
  if (protocol === 'gemini' && stream) {
    url.pathname = url.pathname.replace(':generateContent', ':streamGenerateContent')
    if (url.pathname.includes(':streamGenerateContent')) url.searchParams.set('alt', 'sse')
  }
  return url
}

/**
 * AdvancedCustom (new-api type 58): an upstream the operator describes route by route (advanced-custom/routes.ts),
 * kept in the channel's `setting` as new-api keeps it. A route takes one client path and sends it to its own path in
 * the wire format its converter names (or the client's own); every client protocol not routed is refused.
 */
export const advancedCustom: Provider = {
  type: 58,
  id: 'advanced-custom',
  name: 'AdvancedCustom',
  protocols: ['openai-chat', 'anthropic', 'openai-responses', 'gemini'],
  endpoints: { 'openai-chat': { path: '' }, anthropic: { path: '' }, 'openai-responses': { path: '' }, gemini: { path: '' } },
  routedProtocol: (setting, client, model) => {
    const route = routeFor(setting, client, model)
    return route && upstreamOf(route, client)
  },
  connector: {
    async prepare(call) {
      const client = call.client ?? (call.protocol as 'openai-chat')
      const route = routeFor(call.setting, client, call.clientModel) ?? routeFor(call.setting, client, call.model)
      if (!route) throw new Error(`no route of this channel serves ${client} requests for ${call.clientModel}`)
      const url = routeUrl(route, call.baseUrl, call.model, call.protocol, call.stream)
      const headers: Record<string, string> = { ...call.headers, 'content-type': 'application/json', ...PROTOCOL_HEADERS[call.protocol] }
      const auth = route.auth
      const secret = (template: string | undefined) => (template ?? '{api_key}').replaceAll('{api_key}', call.key)
      if (!auth) headers.authorization = `Bearer ${call.key}`
      else if (auth.type === 'header') headers[auth.name!.trim().toLowerCase()] = secret(auth.value)
      else if (auth.type === 'query') url.searchParams.set(auth.name!.trim(), secret(auth.value))
      return { url: url.href, headers }
    },
  },
  defaultBaseUrl: '',
  auth: 'bearer',
  keyRequired: false,
  testModel: 'gpt-4o-mini',
  // what new-api offers for this type: OpenAI's, Anthropic's and Gemini's names (the routes decide where they go)
  models: ['gpt-4o-mini', 'gpt-4.1', 'claude-sonnet-4-5', 'gemini-2.5-flash'],
  quirks: {},
  checkSetting: (setting) => checkAdvancedRoutes(setting),
  note: 'Routes in setting.advanced_custom.advanced_routes (new-api\'s shape): each client path to an upstream path, with a converter and how the key is sent.',
}

/** A channel of type 58 must carry usable routes: a 400 naming `setting` otherwise. */
function checkAdvancedRoutes(setting: Record<string, unknown>): void {
  const problem = routeProblem(setting)
  if (problem) throw new BadRequestError(problem, 'setting')
}
