import type { OptionRepo } from '../db/repos'
import { BadRequestError } from '../errors'
import { OPTION_DEFINITIONS } from './definitions'
import type { OptionDefinition } from './option-definition'

export type OptionValue = string | number | boolean | object

/** The option store with the stored values read once. */
export async function loadOptionStore(repo: OptionRepo, definitions: Record<string, OptionDefinition> = OPTION_DEFINITIONS) {
  return createOptionStore(repo, await repo.all(), definitions)
}

/**
 * Typed runtime settings served from memory (`get` reads no database), starting from `stored` (the rows as
 * `repo.all()` gave them); a write validates, persists, then refreshes the memory. `reload` reads the rows
 * again after another node wrote them.
 */
export function createOptionStore(repo: OptionRepo, stored: Record<string, string>, definitions: Record<string, OptionDefinition> = OPTION_DEFINITIONS) {
  const values = new Map<string, OptionValue>()
  // the text each value came from (undefined: the default), so a reload keeps the objects of unchanged options
  // (the price tables are rebuilt only when one of their option objects changes: metering/prices.ts)
  const texts = new Map<string, string | undefined>()
  // bumped whenever a value may have changed: what is derived from options (the price tables) is checked with one read
  let version = 0
  function absorb(rows: Record<string, string>): void {
    for (const [key, def] of Object.entries(definitions)) {
      const raw = Object.hasOwn(rows, key) ? rows[key] : undefined
      if (values.has(key) && texts.get(key) === raw) continue
      version++
      texts.set(key, raw)
      values.set(key, parse(key, def, def.default))
      if (raw === undefined) continue
      try {
        values.set(key, parse(key, def, raw))
      } catch {
        console.warn(`option ${key}: stored value ${JSON.stringify(raw)} is invalid; using the default`)
      }
    }
  }
  absorb(stored)
  let reloading: Promise<void> = Promise.resolve()

  return {
    /** changes whenever any value may have changed (a write, a reload that found a new text) */
    get version(): number {
      return version
    },
    get<T extends OptionValue>(key: string): T {
      // one map lookup on the hot path (a request reads dozens of options): `has` only for what is missing
      const value = values.get(key)
      if (value === undefined && !values.has(key)) throw new Error(`unknown option ${key}`)
      return value as T
    },
    all(): { key: string; value: OptionValue; type: string; description: string }[] {
      return Object.entries(definitions).map(([key, def]) => ({ key, value: values.get(key)!, type: def.type, description: def.description }))
    },
    /** Accepts the value as sent (string, number, boolean or object) and checks it against the definition; in force once stored. */
    async set(key: string, input: unknown): Promise<OptionValue> {
      const { value, stored } = checkOption(key, input, definitions)
      await repo.set(key, stored)
      values.set(key, value)
      texts.set(key, stored)
      version++
      return value
    },
    /** Read every stored value again (another node changed one); reloads run one at a time, in order. */
    reload(): Promise<void> {
      reloading = reloading.then(async () => absorb(await repo.all())).catch((error: unknown) => {
        console.error(`options: cannot reload (${(error as Error).message})`)
      })
      return reloading
    },
  }
}

/** An option's value as sent, checked against its definition (or a 400): the value, and the text stored for it. */
export function checkOption(key: string, input: unknown, definitions: Record<string, OptionDefinition> = OPTION_DEFINITIONS): { value: OptionValue; stored: string } {
  const def = definitions[key]
  if (!def) throw new BadRequestError(`unknown option "${key}"`, 'key')
  const raw = typeof input === 'string' ? input : JSON.stringify(input)
  const value = parse(key, def, raw)
  return { value, stored: def.type === 'json' ? JSON.stringify(value) : String(value) }
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
