import { jsonBody, rec, str } from '../shared.ts'
import { sseData } from '../sse.ts'
import type { WireError } from '../types.ts'
import { openaiErrorType } from './maps.ts'

/** `{error:{message, type, param, code}}` (shared by Chat Completions and Responses). */
export function renderError(err: { status: number; message: string; code?: string; param?: string }): Record<string, unknown> {
  return { error: { message: err.message, type: openaiErrorType(err.status), param: err.param ?? null, code: err.code ?? null } }
}

/** A data chunk carrying `error` (the OpenAI SDK raises it). */
export function renderStreamError(err: WireError): string {
  return sseData(renderError(err))
}

/** Upstream OpenAI-style error body → status + message. */
export function parseError(status: number, body: unknown): WireError {
  const parsed = jsonBody(body)
  const b = Array.isArray(parsed) ? rec(parsed[0]) : rec(parsed)
  const e = typeof b.error === 'string' ? { message: b.error } : rec(b.error)
  const message =
    str(e.message) ?? str(b.message) ?? str(b.detail) ?? (typeof body === 'string' && body ? body.slice(0, 500) : `upstream returned ${status}`)
  const out: WireError = { status, message }
  const code = str(e.code) ?? str(e.type)
  if (code) out.code = code
  const param = str(e.param)
  if (param) out.param = param
  return out
}
