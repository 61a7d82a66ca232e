import { sseEvent } from '../sse.ts'
import type { WireError } from '../types.ts'
import { parseError as parseOpenAIError, renderError } from '../openai-chat/errors.ts'

export { renderError }

/**
 * In-stream error before anything was sent: an `error` event (`{type:"error", code, message, param}`).
 * Once `response.created` went out, the stream encoder sends `response.failed` instead.
 */
export function renderStreamError(err: WireError): string {
  return sseEvent('error', { type: 'error', sequence_number: 0, code: err.code ?? 'server_error', message: err.message, param: err.param ?? null })
}

export function parseError(status: number, body: unknown): WireError {
  return parseOpenAIError(status, body)
}
