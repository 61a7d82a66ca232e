import type { ModelMapping } from '../../relay/routing/model-mapping'

/**
 * new-api's channel `settings` JSON (its "other settings"): the fields the upstream model check reads and writes, with
 * new-api's names. Other fields of the object are kept as they are.
 */
export interface UpstreamSettings {
  upstream_model_update_check_enabled: boolean
  upstream_model_update_auto_sync_enabled: boolean
  /** unix seconds of the last check (0: never) */
  upstream_model_update_last_check_time: number
  /** on the upstream's list, not on the channel, not ignored: waiting for review */
  upstream_model_update_last_detected_models: string[]
  /** on the channel, gone from the upstream's list: waiting for review (never removed on its own) */
  upstream_model_update_last_removed_models: string[]
  /** never proposed again: exact names, or `regex:<pattern>` as new-api allows */
  upstream_model_update_ignored_models: string[]
}

/** Stored lists are bounded: a huge upstream list cannot grow a channel row without limit. */
export const MAX_STORED_MODELS = 5000

const names = (value: unknown): string[] =>
  Array.isArray(value) ? [...new Set(value.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter(Boolean))].slice(0, MAX_STORED_MODELS) : []

function objectOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}')
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

export function readUpstreamSettings(text: string): UpstreamSettings {
  const o = objectOf(text)
  return {
    upstream_model_update_check_enabled: o.upstream_model_update_check_enabled === true,
    upstream_model_update_auto_sync_enabled: o.upstream_model_update_auto_sync_enabled === true,
    upstream_model_update_last_check_time: typeof o.upstream_model_update_last_check_time === 'number' ? o.upstream_model_update_last_check_time : 0,
    upstream_model_update_last_detected_models: names(o.upstream_model_update_last_detected_models),
    upstream_model_update_last_removed_models: names(o.upstream_model_update_last_removed_models),
    upstream_model_update_ignored_models: names(o.upstream_model_update_ignored_models),
  }
}

/** The stored text with the given upstream fields replaced, the rest of the object untouched. */
export function writeUpstreamSettings(text: string, patch: Partial<UpstreamSettings>): string {
  return JSON.stringify({ ...objectOf(text), ...patch })
}

/** What a channel edit sends as `settings`: the switches and the ignored list are the admin's; the findings stay the check's. */
export function editedSettings(sent: Record<string, unknown>, stored: string): string {
  const kept = readUpstreamSettings(stored)
  const edited = readUpstreamSettings(JSON.stringify(sent))
  return JSON.stringify({
    ...sent,
    upstream_model_update_check_enabled: edited.upstream_model_update_check_enabled,
    upstream_model_update_auto_sync_enabled: edited.upstream_model_update_auto_sync_enabled,
    upstream_model_update_ignored_models: 'upstream_model_update_ignored_models' in sent ? edited.upstream_model_update_ignored_models : kept.upstream_model_update_ignored_models,
    upstream_model_update_last_check_time: kept.upstream_model_update_last_check_time,
    upstream_model_update_last_detected_models: kept.upstream_model_update_last_detected_models,
    upstream_model_update_last_removed_models: kept.upstream_model_update_last_removed_models,
  })
}

/** new-api's ignore rule: an exact name, or `regex:<pattern>` (a bad pattern matches nothing). */
export function isIgnored(model: string, ignored: readonly string[]): boolean {
  return ignored.some((rule) => {
    if (!rule.startsWith('regex:')) return rule === model
    try {
      return new RegExp(rule.slice('regex:'.length).trim()).test(model)
    } catch {
      return false
    }
  })
}

const unique = (list: string[]) => [...new Set(list.map((n) => n.trim()).filter(Boolean))]

/** The pending changes between a channel's models and its upstream's list, as new-api computes them. */
export function diffModels(local: string[], upstream: string[], mapping: ModelMapping): { add: string[]; remove: string[] } {
  const have = new Set([...unique(local), ...Object.values(mapping)])
  const listed = new Set(unique(upstream))
  return {
    add: unique(upstream).filter((m) => !have.has(m)),
    remove: unique(local).filter((m) => !listed.has(m) && !(m in mapping)),
  }
}
