import type { ProviderOptions } from './request.ts'
import type { FinishReason } from './response.ts'
import type { Usage } from './usage.ts'

/**
 * Neutral stream events. Blocks are opened, filled and closed explicitly, and carry ids so interleaved
 * blocks and parallel tool calls survive every protocol. `id` is a block key unique within one response
 * (for tool calls it is the call id).
 */
export type StreamEvent =
  | { type: 'start'; id: string; model: string; created?: number }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string; providerOptions?: ProviderOptions }
  | { type: 'reasoning-start'; id: string; itemId?: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | {
      type: 'reasoning-end'
      id: string
      signature?: string
      encrypted?: string
      redacted?: boolean
      /** Protocol id that produced the signature / encrypted content. */
      origin?: string
      itemId?: string
    }
  /** `index` is the ordinal of this tool call among the response's tool calls (0, 1, …). */
  | { type: 'tool-input-start'; id: string; name: string; index: number }
  | { type: 'tool-input-delta'; id: string; delta: string }
  | { type: 'tool-input-end'; id: string; providerOptions?: ProviderOptions }
  /** Cumulative usage so far (later events replace earlier ones). */
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: FinishReason; usage?: Usage }
  | { type: 'error'; error: StreamError }

interface StreamError {
  status?: number
  code?: string
  message: string
}
