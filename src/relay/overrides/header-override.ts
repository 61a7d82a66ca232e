import { OverrideError } from './param-override'

/**
 * new-api's `header_override`: headers set on every upstream call of the channel, after the provider's own (so an
 * override may replace the auth header). In values, `{api_key}` is the key this attempt uses and `{request_id}`
 * the request's id.
 */
export type HeaderOverride = [name: string, value: string][]

/** Headers the HTTP client owns: setting them would break the request (or let a value smuggle a second one). */
const OWNED = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'proxy-authorization'])
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/
const MAX_HEADERS = 50

export function parseHeaderOverride(value: unknown): HeaderOverride | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object' || Array.isArray(value)) throw new OverrideError('must be a JSON object of header names to values')
  const entries = Object.entries(value as Record<string, unknown>)
  if (entries.length > MAX_HEADERS) throw new OverrideError(`at most ${MAX_HEADERS} headers`)
  const out: HeaderOverride = []
  for (const [name, v] of entries) {
    if (!TOKEN.test(name)) throw new OverrideError(`"${name.slice(0, 100)}" is not a header name`)
    if (OWNED.has(name.toLowerCase())) throw new OverrideError(`${name} is set by the HTTP client and cannot be overridden`)
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw new OverrideError(`the value of ${name} must be text`)
    const text = String(v)
    if (/[\r\n\0]/.test(text) || text.length > 4000) throw new OverrideError(`the value of ${name} has a line break or is over 4000 characters`)
    out.push([name, text])
  }
  return out.length ? out : undefined
}

/** The headers with the override applied (a name set case-insensitively, once). */
export function withHeaderOverride(headers: Record<string, string>, override: HeaderOverride, places: { key: string; requestId: string }): Record<string, string> {
  const out = { ...headers }
  for (const [name, value] of override) {
    for (const existing of Object.keys(out)) if (existing.toLowerCase() === name.toLowerCase()) delete out[existing]
    out[name] = value.replaceAll('{api_key}', places.key).replaceAll('{request_id}', places.requestId)
  }
  return out
}
