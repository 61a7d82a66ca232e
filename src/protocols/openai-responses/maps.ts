import type { FinishReason, Usage } from '../../ir/index.ts'
import { rec, str } from '../shared.ts'
import { usageFromOpenAI } from '../openai-chat/maps.ts'

/** Responses usage → IR: `input_tokens` includes `cached_tokens`, `output_tokens` includes `reasoning_tokens`. */
export function usageFromResponses(u: unknown): Usage {
  return usageFromOpenAI(u)
}

export function usageToResponses(u: Usage): Record<string, unknown> {
  const input = u.input.noCache + u.input.cacheRead + u.input.cacheWrite
  const output = u.output.text + u.output.reasoning
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.input.cacheRead },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: u.output.reasoning },
    total_tokens: input + output,
  }
}

/** Finish reason from a response object's status / incomplete_details and whether it called tools. */
export function finishFromResponses(resp: Record<string, unknown>, calledTools: boolean): FinishReason {
  const status = str(resp.status)
  if (status === 'incomplete') {
    const reason = str(rec(resp.incomplete_details).reason)
    if (reason === 'content_filter') return { unified: 'content_filter', raw: reason }
    return { unified: 'length', raw: reason ?? 'incomplete' }
  }
  if (status === 'failed') return { unified: 'error', raw: status }
  if (calledTools) return { unified: 'tool_calls', raw: status ?? 'completed' }
  return { unified: 'stop', raw: status ?? 'completed' }
}

/** Terminal status (and incomplete reason) for a client response. */
export function statusForFinish(f: FinishReason): { status: 'completed' | 'incomplete' | 'failed'; incomplete?: string } {
  if (f.unified === 'length') return { status: 'incomplete', incomplete: 'max_output_tokens' }
  if (f.unified === 'content_filter') return { status: 'incomplete', incomplete: 'content_filter' }
  if (f.unified === 'error') return { status: 'failed' }
  return { status: 'completed' }
}
