import { ValidationError } from 'elysia'
import { GatewayError } from '../errors'

export interface ErrorView {
  status: number
  code: string
  message: string
  param?: string
  headers?: Record<string, string>
}

/** Turn anything thrown in a request into a status + message, so every edge renders the same facts. */
export function describeError(code: string | number, error: unknown): ErrorView {
  if (error instanceof GatewayError) {
    return { status: error.status, code: error.code, message: error.message, param: error.param, headers: error.headers }
  }
  if (error instanceof ValidationError) return describeValidation(error)
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
  console.error('unhandled error:', error)
  return { status: 500, code: 'internal_error', message: 'internal error' }
}

function describeValidation(error: ValidationError): ErrorView {
  const first = error.all[0] as { path?: string; message?: string; summary?: string } | undefined
  const field = first?.path ? first.path.replace(/^\//, '').replaceAll('/', '.') : ''
  const where = error.type === 'query' ? 'query parameter' : error.type === 'headers' ? 'header' : 'field'
  const detail = first?.message ?? 'invalid value'
  const message = field ? `${where} "${field}": ${detail.toLowerCase()}` : `invalid ${error.type}: ${detail.toLowerCase()}`
  return { status: 400, code: 'invalid_request', message, param: field || undefined }
}
