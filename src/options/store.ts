import type { OptionRepo } from '../db/sqlite/repos/options'
import { BadRequestError } from '../errors'
import { OPTION_DEFINITIONS, type OptionDefinition } from './definitions'

export type OptionValue = string | number | boolean | object

/** Typed runtime settings served from memory; a write validates, persists, then refreshes the cache. */
export function createOptionStore(repo: OptionRepo, definitions: Record<string, OptionDefinition> = OPTION_DEFINITIONS) {
  const values = new Map<string, OptionValue>()
  for (const [key, def] of Object.entries(definitions)) values.set(key, parse(key, def, def.default))
  for (const [key, raw] of Object.entries(repo.all())) {
    const def = definitions[key]
    if (!def) continue
    try {
      values.set(key, parse(key, def, raw))
    } catch {
      console.warn(`option ${key}: stored value ${JSON.stringify(raw)} is invalid; using the default`)
    }
  }

  return {
    get<T extends OptionValue>(key: string): T {
      if (!values.has(key)) throw new Error(`unknown option ${key}`)
      return values.get(key) as T
    },
    all(): { key: string; value: OptionValue; type: string; description: string }[] {
      return Object.entries(definitions).map(([key, def]) => ({ key, value: values.get(key)!, type: def.type, description: def.description }))
    },
    /** Accepts the value as sent (string, number, boolean or object) and checks it against the definition. */
    set(key: string, input: unknown): OptionValue {
      const def = definitions[key]
      if (!def) throw new BadRequestError(`unknown option "${key}"`, 'key')
      const raw = typeof input === 'string' ? input : JSON.stringify(input)
      const value = parse(key, def, raw)
      repo.set(key, def.type === 'json' ? JSON.stringify(value) : String(value))
      values.set(key, value)
      return value
    },
  }
}

export type OptionStore = ReturnType<typeof createOptionStore>

function parse(key: string, def: OptionDefinition, raw: string): OptionValue {
  const value = convert(key, def.type, raw.trim())
  const problem = def.check?.(value)
  if (problem) throw new BadRequestError(`option "${key}" ${problem}`, 'value')
  return value
}

function convert(key: string, type: OptionDefinition['type'], raw: string): OptionValue {
  const fail = (expected: string) => new BadRequestError(`option "${key}" expects ${expected}, got ${JSON.stringify(raw)}`, 'value')
  switch (type) {
    case 'boolean':
      if (raw === 'true' || raw === 'false') return raw === 'true'
      throw fail('true or false')
    case 'integer': {
      const n = Number(raw)
      if (raw === '' || !Number.isSafeInteger(n)) throw fail('an integer')
      return n
    }
    case 'number': {
      const n = Number(raw)
      if (raw === '' || !Number.isFinite(n)) throw fail('a number')
      return n
    }
    case 'json': {
      try {
        const parsed: unknown = JSON.parse(raw)
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error()
        return parsed as object
      } catch {
        throw fail('a JSON object')
      }
    }
    case 'string':
      return raw
  }
}
