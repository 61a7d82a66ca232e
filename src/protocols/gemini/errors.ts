import { jsonBody, num, rec, str } from '../shared.ts'
import { sseData } from '../sse.ts'
import type { WireError } from '../types.ts'
import { googleStatus } from './maps.ts'

/** `{error:{code, message, status}}` with a google.rpc status name. */
export function renderError(err: { status: number; message: string }): Record<string, unknown> {
  return { error: { code: err.status, message: err.message, status: googleStatus(err.status) } }
}

export function renderStreamError(err: WireError): string {
  return sseData(renderError(err))
}

export function parseError(status: number, body: unknown): WireError {
  const parsed = jsonBody(body)
  const b = Array.isArray(parsed) ? rec(parsed[0]) : rec(parsed)
  const e = rec(b.error)
  const message = str(e.message) ?? (typeof body === 'string' && body ? body.slice(0, 500) : `upstream returned ${status}`)
  const out: WireError = { status: num(e.code) ?? status, message }
  const code = str(e.status)
  if (code) out.code = code
  return out
}
