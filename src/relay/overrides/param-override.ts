import { deletePath, getPath, setPath } from './json-path'

/**
 * new-api's `param_override`: either an object whose keys are set on the body's top level (its first form), or
 * `{"operations": [...]}`, each operation a `mode` on a `path` (set, delete, move, prepend, append, block, pass),
 * run when its `conditions` hold (`logic` OR by default). Applied to the body as sent upstream, after conversion.
 */
export type ParamOverride = { kind: 'merge'; fields: Record<string, unknown> } | { kind: 'operations'; operations: Operation[] }

interface Condition {
  path: string
  mode: ConditionMode
  value: unknown
  invert: boolean
  passMissingKey: boolean
}

interface Operation {
  mode: OperationMode
  path: string
  value: unknown
  keepOrigin: boolean
  from: string
  to: string
  conditions: Condition[]
  logic: 'AND' | 'OR'
}

const OPERATION_MODES = ['set', 'delete', 'move', 'prepend', 'append', 'block', 'pass'] as const
type OperationMode = (typeof OPERATION_MODES)[number]
const CONDITION_MODES = ['full', 'prefix', 'suffix', 'contains', 'gt', 'gte', 'lt', 'lte'] as const
type ConditionMode = (typeof CONDITION_MODES)[number]
const MAX_OPERATIONS = 100
const MAX_CONDITIONS = 20

/** A bad override: the message says which operation and why (the channel form's 400). */
export class OverrideError extends Error {}

/** The request matched a `block` operation: this channel does not take it. */
export class OverrideBlocked extends Error {}

export function parseParamOverride(value: unknown): ParamOverride | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object' || Array.isArray(value)) throw new OverrideError('must be a JSON object')
  const object = value as Record<string, unknown>
  if (!('operations' in object)) return Object.keys(object).length ? { kind: 'merge', fields: object } : undefined
  const ops = object.operations
  if (!Array.isArray(ops)) throw new OverrideError('operations must be an array')
  if (ops.length > MAX_OPERATIONS) throw new OverrideError(`at most ${MAX_OPERATIONS} operations`)
  return { kind: 'operations', operations: ops.map((op, i) => operationOf(op, i + 1)) }
}

function operationOf(raw: unknown, n: number): Operation {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new OverrideError(`operation ${n} is not an object`)
  const op = raw as Record<string, unknown>
  const mode = op.mode
  if (!OPERATION_MODES.includes(mode as OperationMode)) throw new OverrideError(`operation ${n}: mode must be one of ${OPERATION_MODES.join(', ')}`)
  const text = (field: string): string => (typeof op[field] === 'string' ? (op[field] as string) : '')
  const needs = (field: string) => {
    if (!text(field)) throw new OverrideError(`operation ${n} (${mode as string}): ${field} is required`)
  }
  if (mode === 'move') (needs('from'), needs('to'))
  else if (mode !== 'block' && mode !== 'pass') needs('path')
  if ((mode === 'set' || mode === 'prepend' || mode === 'append') && !('value' in op)) throw new OverrideError(`operation ${n} (${mode}): value is required`)
  const logic = typeof op.logic === 'string' ? op.logic.toUpperCase() : 'OR'
  if (logic !== 'AND' && logic !== 'OR') throw new OverrideError(`operation ${n}: logic must be AND or OR`)
  const conditions = op.conditions ?? []
  if (!Array.isArray(conditions)) throw new OverrideError(`operation ${n}: conditions must be an array`)
  if (conditions.length > MAX_CONDITIONS) throw new OverrideError(`operation ${n}: at most ${MAX_CONDITIONS} conditions`)
  return {
    mode: mode as OperationMode,
    path: text('path'),
    value: op.value,
    keepOrigin: op.keep_origin === true,
    from: text('from'),
    to: text('to'),
    logic,
    conditions: conditions.map((c, i) => conditionOf(c, n, i + 1)),
  }
}

function conditionOf(raw: unknown, n: number, m: number): Condition {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new OverrideError(`operation ${n}, condition ${m} is not an object`)
  const c = raw as Record<string, unknown>
  if (typeof c.path !== 'string' || !c.path) throw new OverrideError(`operation ${n}, condition ${m}: path is required`)
  const mode = typeof c.mode === 'string' ? c.mode.toLowerCase() : ''
  if (!CONDITION_MODES.includes(mode as ConditionMode)) throw new OverrideError(`operation ${n}, condition ${m}: mode must be one of ${CONDITION_MODES.join(', ')}`)
  if (mode.startsWith('g') || mode.startsWith('l')) {
    if (typeof c.value !== 'number') throw new OverrideError(`operation ${n}, condition ${m}: ${mode} compares with a number`)
  }
  return { path: c.path, mode: mode as ConditionMode, value: c.value, invert: c.invert === true, passMissingKey: c.pass_missing_key === true }
}

/** Runs the override on the body (changed in place). Throws OverrideBlocked when a `block` operation applies. */
export function applyParamOverride(body: Record<string, unknown>, override: ParamOverride): void {
  if (override.kind === 'merge') {
    for (const [key, value] of Object.entries(override.fields)) if (key !== '__proto__') body[key] = structuredClone(value)
    return
  }
  for (const op of override.operations) {
    if (!conditionsHold(body, op)) continue
    if (op.mode === 'block') throw new OverrideBlocked('request blocked by the channel\'s param override')
    if (op.mode === 'pass') return
    applyOne(body, op)
  }
}

function applyOne(body: Record<string, unknown>, op: Operation): void {
  switch (op.mode) {
    case 'delete':
      deletePath(body, op.path)
      return
    case 'set':
      if (op.keepOrigin && getPath(body, op.path).found) return
      setPath(body, op.path, structuredClone(op.value))
      return
    case 'move': {
      const from = getPath(body, op.from)
      if (!from.found) return // nothing to move
      deletePath(body, op.from)
      setPath(body, op.to, from.value)
      return
    }
    default:
      extend(body, op)
  }
}

/** prepend / append: to an array its items, to a string its text, to an object its fields (kept where `keep_origin`). */
function extend(body: Record<string, unknown>, op: Operation): void {
  const current = getPath(body, op.path)
  const first = op.mode === 'prepend'
  const value = structuredClone(op.value)
  if (!current.found) return
  if (Array.isArray(current.value)) {
    const added = Array.isArray(value) ? value : [value]
    setPath(body, op.path, first ? [...added, ...current.value] : [...current.value, ...added])
  } else if (typeof current.value === 'string') {
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    setPath(body, op.path, first ? text + current.value : current.value + text)
  } else if (current.value && typeof current.value === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    const merged = { ...(current.value as Record<string, unknown>) }
    for (const [k, v] of Object.entries(value)) if (!op.keepOrigin || merged[k] === undefined || merged[k] === null) merged[k] = v
    setPath(body, op.path, merged)
  }
}

function conditionsHold(body: unknown, op: Operation): boolean {
  if (op.conditions.length === 0) return true
  const results = op.conditions.map((c) => conditionHolds(body, c))
  return op.logic === 'AND' ? results.every(Boolean) : results.some(Boolean)
}

function conditionHolds(body: unknown, c: Condition): boolean {
  const found = getPath(body, c.path)
  if (!found.found) return c.passMissingKey
  const result = compare(found.value, c.value, c.mode)
  return c.invert ? !result : result
}

function compare(actual: unknown, expected: unknown, mode: ConditionMode): boolean {
  const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v))
  switch (mode) {
    case 'full':
      return typeof actual === typeof expected && asText(actual) === asText(expected)
    case 'prefix':
      return asText(actual).startsWith(asText(expected))
    case 'suffix':
      return asText(actual).endsWith(asText(expected))
    case 'contains':
      return asText(actual).includes(asText(expected))
    default:
      return typeof actual === 'number' && typeof expected === 'number' && numeric(actual, expected, mode)
  }
}

function numeric(a: number, b: number, mode: 'gt' | 'gte' | 'lt' | 'lte'): boolean {
  return mode === 'gt' ? a > b : mode === 'gte' ? a >= b : mode === 'lt' ? a < b : a <= b
}
