import { tokenCount, usageFromInclusive, type FinishReason, type Usage } from '../../ir/index.ts'
import { rec } from '../shared.ts'

const FILTERED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'LANGUAGE'])

export function finishFromGemini(raw: string | undefined, calledTools: boolean): FinishReason {
  if (raw === 'MAX_TOKENS') return { unified: 'length', raw }
  if (raw && FILTERED.has(raw)) return { unified: 'content_filter', raw }
  if (raw === 'MALFORMED_FUNCTION_CALL' || raw === 'UNEXPECTED_TOOL_CALL') return { unified: 'error', raw }
  if (calledTools) return raw ? { unified: 'tool_calls', raw } : { unified: 'tool_calls' }
  if (raw === 'STOP' || raw === undefined) return raw ? { unified: 'stop', raw } : { unified: 'stop' }
  return { unified: 'other', raw }
}

export function finishToGemini(f: FinishReason): string {
  switch (f.unified) {
    case 'length':
      return 'MAX_TOKENS'
    case 'content_filter':
      return f.raw && FILTERED.has(f.raw) ? f.raw : 'SAFETY'
    case 'error':
      return 'OTHER'
    case 'other':
      return f.raw === 'OTHER' ? 'OTHER' : 'STOP'
    default:
      return 'STOP'
  }
}

/** usageMetadata → IR: `promptTokenCount` includes `cachedContentTokenCount`; thoughts are separate from candidates. */
export function usageFromGemini(u: unknown): Usage {
  const o = rec(u)
  const prompt = tokenCount(o.promptTokenCount) + tokenCount(o.toolUsePromptTokenCount)
  const cached = Math.min(prompt, tokenCount(o.cachedContentTokenCount))
  return usageFromInclusive({ prompt, cacheRead: cached, outputText: tokenCount(o.candidatesTokenCount), reasoning: tokenCount(o.thoughtsTokenCount) })
}

export function usageToGemini(u: Usage): Record<string, unknown> {
  const prompt = u.input.noCache + u.input.cacheRead + u.input.cacheWrite
  const out: Record<string, unknown> = {
    promptTokenCount: prompt,
    candidatesTokenCount: u.output.text,
    totalTokenCount: prompt + u.output.text + u.output.reasoning,
  }
  if (u.output.reasoning) out.thoughtsTokenCount = u.output.reasoning
  if (u.input.cacheRead) out.cachedContentTokenCount = u.input.cacheRead
  return out
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
  529: 'UNAVAILABLE',
}

export function googleStatus(status: number): string {
  return STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION')
}
