import type { AssistantPart, ProviderOptions } from './request.ts'
import type { Usage } from './usage.ts'

type UnifiedFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error' | 'other'

export interface FinishReason {
  unified: UnifiedFinishReason
  /** The vendor's own value (`end_turn`, `stop_sequence`, `MAX_TOKENS` …), when there was one. */
  raw?: string
  /** Anthropic `stop_sequence`: which stop sequence matched. */
  stopSequence?: string
}

export interface IrResponse {
  id: string
  model: string
  parts: AssistantPart[]
  finish: FinishReason
  usage: Usage
  /** Unix seconds. */
  created?: number
  providerOptions?: ProviderOptions
}
