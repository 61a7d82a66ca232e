import { sseEvent } from '../sse.ts'
import { jsonBody, rec, str } from '../shared.ts'
import type { WireError } from '../types.ts'
import { anthropicErrorType } from './maps.ts'

/** `{type:"error", error:{type, message}}` with the type derived from the status. */
export function renderError(err: { status: number; message: string; code?: string }): Record<string, unknown> {
  return { type: 'error', error: { type: anthropicErrorType(err.status), message: err.message } }
}

/** `event: error` frame for failures after the stream started. */
export function renderStreamError(err: WireError): string {
  return sseEvent('error', renderError(err))
}

/** Upstream Anthropic error body → status + message. */
export function parseError(status: number, body: unknown): WireError {
  const b = rec(jsonBody(body))
  const e = rec(b.error)
  const message = str(e.message) ?? str(b.message) ?? (typeof body === 'string' && body ? body.slice(0, 500) : `upstream returned ${status}`)
  const out: WireError = { status, message }
  const code = str(e.type)
  if (code) out.code = code
  return out
}
