import type { OptionDefinition } from './option-definition'

/** A JSON object of model name → a positive whole number of tokens. */
const tokenTable = (value: unknown) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of model → tokens'
  for (const [name, n] of Object.entries(value as Record<string, unknown>)) {
    if (!name.trim()) return 'has an empty model name'
    if (!Number.isSafeInteger(n) || (n as number) < 1) return `"${name}" must be a whole number of tokens, at least 1`
  }
  return undefined
}
const positive = (value: unknown) => ((value as number) < 1 ? 'must be at least 1' : undefined)

/**
 * What a request is sent with when it sets no output cap, and what input sent by reference is reserved at
 * (metering/output-cap.ts, metering/model-limits.ts; docs/security.md "Client-chosen multipliers").
 */
export const OUTPUT_OPTIONS: Record<string, OptionDefinition> = {
  ModelMaxOutputTokens: { type: 'json', default: '{}', description: 'model → most output tokens one output may write; a priced request without max_tokens (max_completion_tokens, max_output_tokens, maxOutputTokens) is sent with this cap, lowered to what the balance buys (shipped defaults for known families, else DefaultMaxOutputTokens)', check: tokenTable },
  MinOutputTokens: { type: 'integer', default: '1024', description: 'a request without an output cap whose balance buys fewer output tokens than this (per output) is refused; with more, it is sent with the cap the balance buys', check: positive },
  ModelContextTokens: { type: 'json', default: '{}', description: 'model → context window in tokens: what a request with input sent by reference (previous_response_id, conversation, cachedContent, file ids, media URLs) is reserved at (shipped defaults for known families, else DefaultContextTokens)', check: tokenTable },
  DefaultContextTokens: { type: 'integer', default: '1048576', description: 'the context window of a model ModelContextTokens and the shipped table do not name', check: positive },
}
