import { ParseError, ValidationError } from 'elysia'
import { isStorageUnavailable } from '../db/errors'
import { isUnstorableText } from '../db/repos/errors'
import { GatewayError } from '../errors'

export interface ErrorView {
  status: number
  code: string
  message: string
  param?: string
  headers?: Record<string, string>
  /** the /api envelope's `data` on an error (a stable code and its facts), else null */
  data?: Record<string, unknown>
}

/**
 * Turn anything thrown in a request into a status + message, so every edge renders the same facts.
 * An unexpected error is printed once, where it is rendered; other readers pass `report = false`.
 */
export function describeError(code: string | number, error: unknown, report = true): ErrorView {
  // Elysia wraps whatever a body parser throws; a 413 from the counted body read (plugins/body-limit) is ours
  if (error instanceof ParseError && error.cause instanceof GatewayError) error = error.cause
  if (error instanceof GatewayError) {
    return { status: error.status, code: error.code, message: error.message, param: error.param, headers: error.headers, data: error.data }
  }
  if (error instanceof ValidationError) return describeValidation(error)
  if (isStorageUnavailable(error)) {
    if (report) console.error('database unavailable:', (error as Error).message)
    return { status: 503, code: 'storage_unavailable', message: 'the database is not answering: try again shortly', headers: { 'retry-after': '1' } }
  }
  // recursion over the client's own nesting (json-depth bounds /api bodies; a relay body that passed its schema
  // is only walked by code that needs it): the request is at fault, not the gateway
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return { status: 400, code: 'invalid_request', message: 'the request nests too deeply to process' }
  }
  if (isUnstorableText(error)) {
    return { status: 400, code: 'invalid_request', message: 'a text field holds a character the database cannot store (NUL, \\u0000)' }
  }
  switch (code) {
    case 'PARSE':
      return { status: 400, code: 'invalid_json', message: 'the request body is not valid JSON (or not of the declared content type)' }
    case 'NOT_FOUND':
      return { status: 404, code: 'not_found', message: 'no such route' }
    case 'INVALID_COOKIE_SIGNATURE':
      return { status: 401, code: 'unauthorized', message: 'the session cookie is invalid' }
  }
  const status = (error as { status?: unknown })?.status
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, code: 'invalid_request', message: (error as Error).message || 'bad request' }
  }
  if (report) console.error('unhandled error:', error)
  return { status: 500, code: 'internal_error', message: 'internal error' }
}

function describeValidation(error: ValidationError): ErrorView {
  const first = error.all[0] as ValueIssue | undefined
  const field = first?.path ? first.path.replace(/^\//, '').replaceAll('/', '.') : ''
  const where = error.type === 'query' ? 'query parameter' : error.type === 'headers' ? 'header' : error.type === 'params' ? 'path parameter' : 'field'
  const message = field ? `${where} "${field}" ${explain(first!)}` : `invalid ${error.type}: ${explain(first)}`
  return { status: 400, code: 'invalid_request', message, param: field || undefined }
}

interface ValueIssue {
  path?: string
  message?: string
  value?: unknown
  schema?: Schema
}

interface Schema {
  type?: string
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  anyOf?: Schema[]
  error?: unknown
}

/** Say what was expected in words: Elysia's own text for coerced numbers is only "Expected union value". */
function explain(issue: ValueIssue | undefined): string {
  if (!issue) return 'is invalid'
  if (issue.message === 'Expected required property' || issue.value === undefined) return `is required${expectation(issue.schema)}`
  const schema = issue.schema?.anyOf?.find((s) => s.type && s.type !== 'string' && s.type !== 'undefined') ?? issue.schema
  if (typeof schema?.error === 'string') return `is invalid: ${schema.error}`
  const expected = expectation(schema)
  return expected ? `must be${expected.replace(/^: /, ' ')}, got ${preview(issue.value)}` : `${(issue.message ?? 'is invalid').toLowerCase()}, got ${preview(issue.value)}`
}

function expectation(schema: Schema | undefined): string {
  if (!schema?.type) return ''
  const noun = { integer: 'an integer', number: 'a number', string: 'a string', boolean: 'true or false', array: 'an array', object: 'an object', null: 'null' }[schema.type] ?? schema.type
  const bounds = [
    schema.minimum !== undefined ? `≥ ${schema.minimum}` : '',
    schema.maximum !== undefined ? `≤ ${schema.maximum}` : '',
    schema.minLength ? `of at least ${schema.minLength} characters` : '',
    schema.maxLength !== undefined ? `of at most ${schema.maxLength} characters` : '',
    schema.pattern ? `matching ${schema.pattern}` : '',
  ].filter(Boolean)
  return `: ${noun}${bounds.length ? ' ' + bounds.join(' and ') : ''}`
}

/** At most 60 characters of the value as JSON, built only as far as needed (a value may be large or deeply nested). */
function preview(value: unknown): string {
  const text = shortJson(value, 3)
  return text.length > 60 ? `${text.slice(0, 60)}…` : text
}

function shortJson(value: unknown, depth: number): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? String(value)
  if (depth === 0) return Array.isArray(value) ? '[…]' : '{…}'
  const parts: string[] = []
  let length = 0
  for (const [key, child] of Object.entries(value)) {
    const text = (Array.isArray(value) ? '' : `${JSON.stringify(key)}:`) + shortJson(child, depth - 1)
    parts.push(text)
    length += text.length + 1
    if (length > 60) break
  }
  return Array.isArray(value) ? `[${parts.join(',')}]` : `{${parts.join(',')}}`
}
