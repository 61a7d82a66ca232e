import { tokenCount, type FinishReason, type ReasoningEffort, type Usage } from '../../ir/index.ts'
import { rec } from '../shared.ts'

/** Protocol id used as the `origin` of reasoning signatures this protocol produced. */
export const P = 'bedrock-converse'

export function finishFromConverse(stop: string | undefined, stopSequence?: string): FinishReason {
  const r: FinishReason = { unified: 'other' }
  if (stop) r.raw = stop
  switch (stop) {
    case 'end_turn':
    case 'stop_sequence':
      r.unified = 'stop'
      break
    case 'max_tokens':
    case 'model_context_window_exceeded':
      r.unified = 'length'
      break
    case 'tool_use':
      r.unified = 'tool_calls'
      break
    case 'guardrail_intervened':
    case 'content_filtered':
      r.unified = 'content_filter'
      break
  }
  if (stopSequence) r.stopSequence = stopSequence
  return r
}

/** Converse `TokenUsage` → IR. `inputTokens` counts neither cache reads nor cache writes (as Anthropic's). */
export function usageFromConverse(u: unknown): Usage {
  const o = rec(u)
  return {
    input: { noCache: tokenCount(o.inputTokens), cacheRead: tokenCount(o.cacheReadInputTokens), cacheWrite: tokenCount(o.cacheWriteInputTokens) },
    // Bedrock does not report reasoning tokens apart from output
    output: { text: tokenCount(o.outputTokens), reasoning: 0 },
  }
}

/** Bedrock's error types (the `__type`, `x-amzn-ErrorType` and in-stream `:exception-type` names) by status. */
const TYPE_BY_STATUS: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
}

export function bedrockErrorType(status: number): string {
  return TYPE_BY_STATUS[status] ?? (status >= 500 ? 'InternalServerException' : 'ValidationException')
}

/** Status of an error type, whatever its case (`throttlingException` in streams, `ThrottlingException` in bodies). */
export function statusOfBedrockError(type: string): number {
  const t = type.toLowerCase()
  if (t === 'modelstreamerrorexception') return 424
  if (t === 'unrecognizedclientexception' || t === 'invalidsignatureexception') return 403
  if (t === 'servicequotaexceededexception') return 429
  for (const [status, name] of Object.entries(TYPE_BY_STATUS)) if (name.toLowerCase() === t) return Number(status)
  return 500
}

/** Which vendor's request fields a Bedrock model id takes in `additionalModelRequestFields`. */
export type ModelFamily = 'anthropic' | 'nova' | 'openai' | 'other'

export function modelFamily(modelId: string): ModelFamily {
  // ids may carry a cross-region prefix (`us.`, `global.`) or be an inference-profile ARN
  const id = modelId.toLowerCase()
  if (id.includes('anthropic.') || id.includes('claude')) return 'anthropic'
  if (id.includes('amazon.nova')) return 'nova'
  if (id.includes('openai.')) return 'openai'
  return 'other'
}

/** A thinking budget → the effort levels Nova and gpt-oss take (low, medium, high). */
export function effortLevel(effort: ReasoningEffort | undefined, budget: number | undefined): 'low' | 'medium' | 'high' {
  if (effort === 'minimal' || effort === 'low') return 'low'
  if (effort === 'high' || effort === 'xhigh' || effort === 'max') return 'high'
  if (effort === 'medium') return 'medium'
  if (budget === undefined) return 'medium'
  return budget <= 4096 ? 'low' : budget <= 16384 ? 'medium' : 'high'
}

const IMAGE_FORMATS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' }
const DOCUMENT_FORMATS: Record<string, string> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
}

export const imageFormat = (mediaType: string | undefined) => (mediaType ? IMAGE_FORMATS[mediaType.toLowerCase()] : undefined)
export const documentFormat = (mediaType: string | undefined) => (mediaType ? DOCUMENT_FORMATS[mediaType.toLowerCase()] : undefined)
