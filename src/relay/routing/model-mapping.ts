import { BadRequestError } from '../../errors'
import { findCycle } from './mapping-cycle'

export type ModelMapping = Record<string, string>

/**
 * Parse and check a channel's model_mapping (requested → upstream): a JSON object (or its text) of
 * non-empty strings without cycles. `a → a` is allowed (identity); `a → b, b → a` is not.
 */
export function parseModelMapping(input: unknown, field = 'model_mapping'): ModelMapping {
  let value = input
  if (typeof input === 'string') {
    if (!input.trim()) return {}
    try {
      value = JSON.parse(input)
    } catch {
      throw new BadRequestError(`${field} is not valid JSON`, field)
    }
  }
  if (value === null || value === undefined) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw new BadRequestError(`${field} must be a JSON object of model names`, field)
  const mapping: ModelMapping = {}
  for (const [from, to] of Object.entries(value)) {
    if (typeof to !== 'string' || !to.trim()) {
      throw new BadRequestError(`${field}: the value for "${from}" must be a non-empty string`, field)
    }
    mapping[from] = to.trim()
  }
  const cycle = findCycle(mapping)
  if (cycle) throw new BadRequestError(`${field} has a cycle: ${cycle.join(' → ')}`, field)
  return mapping
}

/** Like parseModelMapping but never throws: stored rows that somehow hold bad JSON map nothing. */
export function parseStoredMapping(text: string): ModelMapping {
  try {
    return parseModelMapping(text)
  } catch {
    return {}
  }
}

/** Follow the mapping chain (as new-api does): a → b → c gives c. Cycles were rejected on write. */
export function mapModel(mapping: ModelMapping, model: string): string {
  let current = model
  const seen = new Set([current])
  for (;;) {
    const next = mapping[current]
    if (!next || next === current || seen.has(next)) return current
    seen.add(next)
    current = next
  }
}
