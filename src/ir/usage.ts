/**
 * Token usage in one neutral shape. Input is split so that the three parts never overlap:
 * `noCache + cacheRead + cacheWrite` is the whole prompt. Output is split so that
 * `text + reasoning` is the whole completion.
 *
 * Vendors count differently; convert at the edge, never add twice:
 * - Anthropic `input_tokens` excludes `cache_read_input_tokens` and `cache_creation_input_tokens`.
 * - OpenAI `prompt_tokens` / `input_tokens` include `cached_tokens`; `completion_tokens` include `reasoning_tokens`.
 * - Gemini `promptTokenCount` includes `cachedContentTokenCount`; `thoughtsTokenCount` is separate from
 *   `candidatesTokenCount`.
 */
export interface Usage {
  /** `cacheWrite1h`: the part of `cacheWrite` written for an hour (Anthropic's `ttl: "1h"`, billed higher), when reported */
  input: { noCache: number; cacheRead: number; cacheWrite: number; cacheWrite1h?: number }
  output: { text: number; reasoning: number }
  /** of those, the audio tokens (realtime): uncached input among `input.noCache`, output among `output.text`; priced by AudioRatio */
  audio?: { input: number; output: number }
}

/** How long a request asks the vendor to keep the prompt it writes to a cache (Anthropic: 5 minutes or 1 hour). */
export type CacheWrites = '5m' | '1h'

export function emptyUsage(): Usage {
  return { input: { noCache: 0, cacheRead: 0, cacheWrite: 0 }, output: { text: 0, reasoning: 0 } }
}

export function inputTokens(u: Usage): number {
  return u.input.noCache + u.input.cacheRead + u.input.cacheWrite
}

export function outputTokens(u: Usage): number {
  return u.output.text + u.output.reasoning
}

export function totalTokens(u: Usage): number {
  return inputTokens(u) + outputTokens(u)
}

/** Non-negative integer from anything (undefined, null, strings, NaN → 0). */
export function tokenCount(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : 0
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0
}

/** Usage from "total prompt including cached" style counters (OpenAI, Gemini). */
export function usageFromInclusive(args: {
  prompt: number
  cacheRead?: number
  cacheWrite?: number
  outputText: number
  reasoning?: number
}): Usage {
  const cacheRead = args.cacheRead ?? 0
  const cacheWrite = args.cacheWrite ?? 0
  return {
    input: { noCache: Math.max(0, args.prompt - cacheRead - cacheWrite), cacheRead, cacheWrite },
    output: { text: Math.max(0, args.outputText), reasoning: args.reasoning ?? 0 },
  }
}
