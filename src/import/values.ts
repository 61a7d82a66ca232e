import type { SourceRow } from './read-source'

/**
 * Column values as the three drivers hand them over, made uniform: PostgreSQL `bigint` arrives as a string,
 * MySQL `tinyint(1)` as 0/1, SQLite booleans as 0/1 or 'true', JSON columns as text or as parsed objects,
 * binary-charset text as a Buffer.
 */
export function text(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8')
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** An integer (quota, ids, unix seconds); `fallback` for NULL or anything that is not a number. */
export function int(value: unknown, fallback = 0): number {
  if (value === null || value === undefined || value === '') return fallback
  const n = typeof value === 'bigint' ? Number(value) : Number(text(value))
  return Number.isFinite(n) ? Math.trunc(n) : fallback
}

export function bool(value: unknown): boolean {
  if (typeof value === 'boolean') return value
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value) !== 0
  const t = text(value).trim().toLowerCase()
  return t === '1' || t === 'true' || t === 't' || t === 'yes'
}

/** A JSON column as an object: parsed text, or the object the driver already parsed; undefined when empty or not JSON. */
export function jsonValue(value: unknown): unknown {
  if (value === null || value === undefined) return undefined
  if (typeof value === 'object' && !(value instanceof Uint8Array) && !(value instanceof Date)) return value
  const t = text(value).trim()
  if (!t) return undefined
  try {
    return JSON.parse(t)
  } catch {
    return undefined
  }
}

export function jsonObject(value: unknown): Record<string, unknown> | undefined {
  const parsed = jsonValue(value)
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined
}

/** GORM's soft delete: a row whose `deleted_at` is set was deleted in new-api and is not imported. */
export function softDeleted(row: SourceRow): boolean {
  const v = row.deleted_at
  if (v === null || v === undefined || v === '') return false
  return !(v instanceof Date && Number.isNaN(v.getTime()))
}

/** Whether a value is "set": reported when a column without a counterpart holds it. */
export function isSet(value: unknown): boolean {
  if (value === null || value === undefined) return false
  if (typeof value === 'boolean') return value
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value) !== 0
  if (value instanceof Date) return !Number.isNaN(value.getTime())
  const t = text(value).trim()
  return t !== '' && t !== '0' && t !== 'false' && t !== '{}' && t !== '[]' && t !== 'null'
}
