import { tokenCount, type FinishReason, type Usage } from '../../ir/index.ts'
import { rec } from '../shared.ts'

export function finishFromAnthropic(stop: string | null | undefined, stopSequence?: string | null): FinishReason {
  const raw = stop ?? undefined
  const r: FinishReason = { unified: 'other', raw }
  switch (stop) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      r.unified = 'stop'
      break
    case 'max_tokens':
    case 'model_context_window_exceeded':
      r.unified = 'length'
      break
    case 'tool_use':
      r.unified = 'tool_calls'
      break
    case 'refusal':
      r.unified = 'content_filter'
      break
  }
  if (stopSequence) r.stopSequence = stopSequence
  if (raw === undefined) delete r.raw
  return r
}

export function finishToAnthropic(f: FinishReason): string {
  if (f.raw && ['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded'].includes(f.raw)) return f.raw
  if (f.stopSequence) return 'stop_sequence'
  switch (f.unified) {
    case 'length':
      return 'max_tokens'
    case 'tool_calls':
      return 'tool_use'
    case 'content_filter':
      return 'refusal'
    default:
      return 'end_turn'
  }
}

/** Anthropic usage → IR. `input_tokens` excludes cache reads and writes; `output_tokens` includes thinking. */
export function usageFromAnthropic(u: unknown): Usage {
  const o = rec(u)
  const output = tokenCount(o.output_tokens)
  const thinking = Math.min(output, tokenCount(rec(o.output_tokens_details).thinking_tokens))
  const cacheWrite = tokenCount(o.cache_creation_input_tokens)
  const input: Usage['input'] = { noCache: tokenCount(o.input_tokens), cacheRead: tokenCount(o.cache_read_input_tokens), cacheWrite }
  // the one-hour part of the writes (billed higher), only when reported
  const oneHour = Math.min(cacheWrite, tokenCount(rec(o.cache_creation).ephemeral_1h_input_tokens))
  if (oneHour > 0) input.cacheWrite1h = oneHour
  return { input, output: { text: output - thinking, reasoning: thinking } }
}

export function usageToAnthropic(u: Usage): Record<string, unknown> {
  const out: Record<string, unknown> = {
    input_tokens: u.input.noCache,
    cache_creation_input_tokens: u.input.cacheWrite,
    cache_read_input_tokens: u.input.cacheRead,
    output_tokens: u.output.text + u.output.reasoning,
  }
  if (u.output.reasoning > 0) out.output_tokens_details = { thinking_tokens: u.output.reasoning }
  return out
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  502: 'api_error',
  503: 'overloaded_error',
  504: 'api_error',
  529: 'overloaded_error',
}

export function anthropicErrorType(status: number): string {
  return ANTHROPIC_ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')
}
