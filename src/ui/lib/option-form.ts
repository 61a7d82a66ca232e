/**
 * The settings form's logic: options as the server answers them (`GET /api/option/`), their values as
 * form fields hold them (booleans as checkboxes, everything else as text), and which changed and are valid.
 */

export type OptionValue = string | number | boolean | object

/** One option as `GET /api/option/` lists it. */
export interface OptionEntry {
  key: string
  value: OptionValue
  type: string
  description?: string
}

/** A field's value: a checkbox's state or a text field's text. */
export type FieldValue = string | boolean

/** What is wrong with a typed value, named so each gets its own message. */
export type OptionProblem = 'integer' | 'number' | 'json' | 'min' | 'url'

/** The field's value for a stored option: JSON pretty-printed, numbers and text as they are. */
export function toFieldValue(type: string, value: OptionValue): FieldValue {
  if (type === 'boolean') return value === true || value === 'true'
  if (type === 'json') {
    if (typeof value === 'string') {
      try {
        return JSON.stringify(JSON.parse(value), null, 2)
      } catch {
        return value
      }
    }
    return JSON.stringify(value, null, 2)
  }
  return String(value)
}

export type Parsed = { ok: true; value: OptionValue } | { ok: false; problem: OptionProblem }

/** '' or an absolute http(s) URL without a trailing slash, query or credentials (as the server wants ServerAddress). */
export function isServerAddress(text: string): boolean {
  if (text === '') return true
  if (!/^https?:\/\/[^\s/?#]+[^\s?#]*$/i.test(text) || text.endsWith('/')) return false
  try {
    const url = new URL(text)
    return !url.username && !url.password
  } catch {
    return false
  }
}

/** A field's value as the option's type, checked against `min` (numbers) or as a URL — or what is wrong with it. */
export function parseFieldValue(type: string, field: FieldValue, min?: number, url?: boolean): Parsed {
  if (type === 'boolean') return { ok: true, value: field === true || field === 'true' }
  const text = String(field).trim()
  if (type === 'integer' || type === 'number') {
    const n = Number(text)
    const valid = text !== '' && (type === 'integer' ? /^-?\d+$/.test(text) && Number.isSafeInteger(n) : Number.isFinite(n))
    if (!valid) return { ok: false, problem: type === 'integer' ? 'integer' : 'number' }
    if (min !== undefined && n < min) return { ok: false, problem: 'min' }
    return { ok: true, value: n }
  }
  if (type === 'json') {
    try {
      const value: unknown = JSON.parse(text)
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, problem: 'json' }
      return { ok: true, value }
    } catch {
      return { ok: false, problem: 'json' }
    }
  }
  if (url && !isServerAddress(text)) return { ok: false, problem: 'url' }
  return { ok: true, value: text }
}

/** Key-order-independent JSON, so `{"a":1,"b":2}` equals `{ "b": 2, "a": 1 }`. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

export function sameValue(a: OptionValue, b: OptionValue): boolean {
  return canonical(a) === canonical(b)
}

/** The value as `PUT /api/option/` takes it: JSON objects as their text, the rest as typed. */
function toWireValue(type: string, value: OptionValue): string | number | boolean {
  if (type === 'json') return JSON.stringify(value)
  return value as string | number | boolean
}

export interface FieldRule {
  key: string
  /** the smallest number allowed (integers and numbers) */
  min?: number
  /** text that must be '' or an absolute http(s) URL without a trailing slash */
  url?: boolean
}

export interface SectionCheck {
  /** the keys whose value differs from the stored one, with the value to send */
  changes: { key: string; value: string | number | boolean }[]
  /** the fields that cannot be sent, and why */
  problems: Record<string, OptionProblem>
}

/**
 * Compare a section's fields with the stored options: only changed keys are sent, and only when every
 * field of the section is valid (an invalid field is reported whether it changed or not).
 */
export function checkSection(rules: readonly FieldRule[], stored: ReadonlyMap<string, OptionEntry>, fields: Readonly<Record<string, FieldValue>>): SectionCheck {
  const changes: SectionCheck['changes'] = []
  const problems: SectionCheck['problems'] = {}
  for (const rule of rules) {
    const entry = stored.get(rule.key)
    if (!entry) continue
    const field = fields[rule.key] ?? toFieldValue(entry.type, entry.value)
    const parsed = parseFieldValue(entry.type, field, rule.min, rule.url)
    if (!parsed.ok) {
      problems[rule.key] = parsed.problem
      continue
    }
    if (!sameValue(parsed.value, entry.value)) changes.push({ key: rule.key, value: toWireValue(entry.type, parsed.value) })
  }
  return { changes, problems }
}
