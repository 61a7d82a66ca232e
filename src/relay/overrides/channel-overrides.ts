import { parseHeaderOverride, type HeaderOverride } from './header-override'
import { OverrideError, parseParamOverride, type ParamOverride } from './param-override'
import { parseProxy } from './proxy-url'
import { parseStatusMapping, type StatusMapping } from './status-mapping'
import type { SystemPrompt } from './system-prompt'

/** What a channel changes in its upstream calls (new-api's channel fields); nothing set = the call as it was. */
export interface ChannelOverrides {
  params?: ParamOverride
  headers?: HeaderOverride
  statuses?: StatusMapping
  systemPrompt?: SystemPrompt
  /** the proxy URL, credentials included (src/outbound dials it) */
  proxy?: string
  /** top-level body fields the channel's type fills from the channel (Coze's `bot_id` from `other`), set before the param override */
  bodyFields?: Record<string, unknown>
}

interface OverrideColumns {
  paramOverride: string
  headerOverride: string
  statusCodeMapping: string
}

/** A channel's overrides from its stored columns and `setting` (checked when saved; anything unreadable counts as unset). */
export function overridesOf(row: OverrideColumns, setting: Record<string, unknown>, bodyFields?: Record<string, unknown>): ChannelOverrides {
  const out: ChannelOverrides = bodyFields ? { bodyFields } : {}
  const params = lenient(() => parseParamOverride(jsonOf(row.paramOverride)))
  const headers = lenient(() => parseHeaderOverride(jsonOf(row.headerOverride)))
  const statuses = lenient(() => parseStatusMapping(jsonOf(row.statusCodeMapping)))
  const proxy = lenient(() => parseProxy(setting.proxy))
  if (params) out.params = params
  if (headers) out.headers = headers
  if (statuses) out.statuses = statuses
  if (proxy) out.proxy = proxy
  if (typeof setting.system_prompt === 'string' && setting.system_prompt.trim()) {
    out.systemPrompt = { text: setting.system_prompt, override: setting.system_prompt_override === true }
  }
  return out
}

/** The body as sent changes (param override, system prompt): the relay builds it as text instead of passing bytes on. */
export function rewritesBody(overrides: ChannelOverrides): boolean {
  return overrides.params !== undefined || overrides.systemPrompt !== undefined || overrides.bodyFields !== undefined
}

/** The status an upstream error is read as. */
export function mappedStatus(overrides: ChannelOverrides, status: number): number {
  return overrides.statuses?.get(status) ?? status
}

function jsonOf(text: string): unknown {
  return text.trim() ? JSON.parse(text) : undefined
}

function lenient<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}

/** Each override field as stored: JSON text checked by its parser ('' = none); OverrideError names what is wrong. */
export const OVERRIDE_FIELDS = {
  param_override: parseParamOverride,
  header_override: parseHeaderOverride,
  status_code_mapping: parseStatusMapping,
} as const

export function storedOverride(field: keyof typeof OVERRIDE_FIELDS, value: unknown): string {
  if (value === null || value === undefined || (typeof value === 'string' && !value.trim())) return ''
  let parsed = value
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value)
    } catch {
      throw new OverrideError('is not valid JSON')
    }
  }
  return OVERRIDE_FIELDS[field](parsed) === undefined ? '' : JSON.stringify(parsed)
}
