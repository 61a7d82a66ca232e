import type { OptionDefinition } from './option-definition'

/** model → its ordered fallbacks: each a non-empty list of distinct model names, none the model itself. */
const fallbackTable = (value: unknown): string | undefined => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of model → [fallback models]'
  for (const [model, list] of Object.entries(value as Record<string, unknown>)) {
    if (!model.trim()) return 'has an empty model name'
    if (!Array.isArray(list) || list.length === 0 || list.length > 10) return `"${model}" must list 1 to 10 fallback models`
    if (list.some((m) => typeof m !== 'string' || !m.trim() || m === model)) return `"${model}" must list model names other than itself`
    if (new Set(list).size !== list.length) return `"${model}" lists a model twice`
  }
  return undefined
}

/** group → its own fallback table (replacing ModelFallbacks' entry for the models it names). */
const groupFallbackTables = (value: unknown): string | undefined => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of group → { model → [fallback models] }'
  for (const [group, table] of Object.entries(value as Record<string, unknown>)) {
    if (!group.trim()) return 'has an empty group name'
    const problem = fallbackTable(table)
    if (problem) return `"${group}" ${problem}`
  }
  return undefined
}

/** Fallbacks across models (relay/fallback-plan.ts, docs/routing.md). */
export const FALLBACK_OPTIONS: Record<string, OptionDefinition> = {
  ModelFallbacks: { type: 'json', default: '{}', description: 'model → fallback models tried in order when no enabled channel serves it, e.g. {"gpt-5": ["gpt-5-mini"]}; a fallback must be allowed to the token and is billed at its own price', check: fallbackTable },
  GroupModelFallbacks: { type: 'json', default: '{}', description: 'group → its own ModelFallbacks entries, e.g. {"vip": {"gpt-5": ["claude-sonnet-4-5"]}} (a model the group names uses its list instead of ModelFallbacks)', check: groupFallbackTables },
}
