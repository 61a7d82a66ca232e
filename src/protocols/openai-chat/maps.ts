import { tokenCount, usageFromInclusive, type FinishReason, type Usage } from '../../ir/index.ts'
import { rec } from '../shared.ts'

export function finishFromChat(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return { unified: 'stop', raw }
    case 'length':
      return { unified: 'length', raw }
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool_calls', raw }
    case 'content_filter':
      return { unified: 'content_filter', raw }
    case null:
    case undefined:
      return { unified: 'other' }
    default:
      return { unified: 'other', raw }
  }
}

export function finishToChat(f: FinishReason): string {
  switch (f.unified) {
    case 'length':
      return 'length'
    case 'tool_calls':
      return 'tool_calls'
    case 'content_filter':
      return 'content_filter'
    default:
      return 'stop'
  }
}

/**
 * OpenAI-style usage → IR. `prompt_tokens` includes `cached_tokens`; `completion_tokens` includes
 * `reasoning_tokens`. Also understands DeepSeek's `prompt_cache_hit_tokens` and the Responses names
 * (`input_tokens`, `output_tokens`).
 */
export function usageFromOpenAI(u: unknown): Usage {
  const o = rec(u)
  const prompt = tokenCount(o.prompt_tokens ?? o.input_tokens)
  const completion = tokenCount(o.completion_tokens ?? o.output_tokens)
  const pd = rec(o.prompt_tokens_details ?? o.input_tokens_details)
  const cd = rec(o.completion_tokens_details ?? o.output_tokens_details)
  const cacheRead = Math.min(prompt, tokenCount(pd.cached_tokens ?? o.prompt_cache_hit_tokens))
  const cacheWrite = Math.min(prompt - cacheRead, tokenCount(pd.cache_write_tokens ?? pd.cache_creation_tokens ?? o.cache_creation_input_tokens))
  const reasoning = Math.min(completion, tokenCount(cd.reasoning_tokens))
  return usageFromInclusive({ prompt, cacheRead, cacheWrite, outputText: completion - reasoning, reasoning })
}

export function usageToChat(u: Usage): Record<string, unknown> {
  const prompt = u.input.noCache + u.input.cacheRead + u.input.cacheWrite
  const completion = u.output.text + u.output.reasoning
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: u.input.cacheRead },
    completion_tokens_details: { reasoning_tokens: u.output.reasoning },
  }
}

export function openaiErrorType(status: number): string {
  if (status === 401) return 'authentication_error'
  if (status === 403) return 'permission_error'
  if (status === 404) return 'not_found_error'
  if (status === 429) return 'rate_limit_error'
  if (status >= 500) return 'server_error'
  return 'invalid_request_error'
}
