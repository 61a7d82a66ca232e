import { BadRequestError } from '../errors'

/** Field checks shared by the operations' decoders: each names the field it refuses, as the OpenAI API does. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequestError('the request body must be a JSON object')
  return body as Record<string, unknown>
}

export function requiredString(body: Record<string, unknown>, field: string): string {
  const value = body[field]
  if (typeof value !== 'string' || !value.trim()) throw new BadRequestError(`${field} is required and must be a non-empty string`, field)
  return value
}

export function optionalString<T extends string>(body: Record<string, unknown>, field: string, allowed?: readonly T[]): T | undefined {
  const value = body[field]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw new BadRequestError(`${field} must be a string`, field)
  if (allowed && !allowed.includes(value as T)) throw new BadRequestError(`${field} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, got "${value.slice(0, 50)}"`, field)
  return value as T
}

export function optionalInteger(body: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const value = body[field]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw new BadRequestError(`${field} must be an integer from ${min} to ${max}`, field)
  return value
}

export function optionalBoolean(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'boolean') throw new BadRequestError(`${field} must be true or false`, field)
  return value
}

/** A string, or an array of non-empty strings (`input` of embeddings and moderations, `documents` of rerank). */
export function stringList(body: Record<string, unknown>, field: string, max: number): { texts: string[]; single: boolean } {
  const value = body[field]
  if (typeof value === 'string') {
    if (!value) throw new BadRequestError(`${field} must not be empty`, field)
    return { texts: [value], single: true }
  }
  if (!Array.isArray(value) || value.length === 0) throw new BadRequestError(`${field} is required: a string or a non-empty array of strings`, field)
  if (value.length > max) throw new BadRequestError(`${field} holds ${value.length} items; at most ${max} are allowed`, field)
  value.forEach((item, i) => {
    if (typeof item !== 'string' || !item) throw new BadRequestError(`${field}[${i}] must be a non-empty string`, `${field}[${i}]`)
  })
  return { texts: value as string[], single: false }
}
