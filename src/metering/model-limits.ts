import type { OptionStore } from '../options/store'
import { namesOf } from './prices'

type Options = Pick<OptionStore, 'get'>

/**
 * Per-model sizes the reservation needs (metering/output-cap.ts, reserve.ts): the most output tokens one output may
 * write, and the context window (no request's input can be larger). The options ModelMaxOutputTokens and
 * ModelContextTokens name models exactly (as prices do: also without a vendor prefix or date suffix); the shipped
 * tables below name families by prefix, the longest match winning, as the vendors list them.
 */
const MAX_OUTPUT: Record<string, number> = {
  'gpt-5': 128_000,
  'gpt-5-pro': 272_000,
  'gpt-5-chat': 16_384,
  'gpt-5.1-chat': 16_384,
  'gpt-4.1': 32_768,
  'gpt-4o': 16_384,
  'gpt-4-turbo': 4_096,
  'gpt-4': 8_192,
  'gpt-3.5-turbo': 4_096,
  o1: 100_000,
  o3: 100_000,
  o4: 100_000,
  'claude-opus-4-5': 64_000,
  'claude-opus-4': 32_000,
  'claude-sonnet-4': 64_000,
  'claude-haiku-4': 64_000,
  'claude-3-7-sonnet': 64_000,
  'claude-3-5': 8_192,
  'claude-3': 4_096,
  'gemini-3': 65_536,
  'gemini-2.5': 65_536,
  'gemini-2.0': 8_192,
  'gemini-1.5': 8_192,
  'deepseek-chat': 8_192,
  'deepseek-reasoner': 65_536,
}

const CONTEXT: Record<string, number> = {
  'gpt-5': 400_000,
  'gpt-5-chat': 128_000,
  'gpt-5.1-chat': 128_000,
  'gpt-4.1': 1_047_576,
  'gpt-4o': 128_000,
  'gpt-4-turbo': 128_000,
  'gpt-4': 8_192,
  'gpt-3.5-turbo': 16_385,
  o1: 200_000,
  o3: 200_000,
  o4: 200_000,
  claude: 200_000,
  gemini: 1_048_576,
  deepseek: 128_000,
}

/** Anthropic's 1M-token context, opened by a beta flag (priced by AnthropicBetaRatio, else removed before dispatch). */
const LONG_CONTEXT_BETA = /^context-1m-/
const LONG_CONTEXT = 1_000_000

/** The most output tokens one output of `model` may write: ModelMaxOutputTokens, the shipped family, else DefaultMaxOutputTokens. */
export function maxOutputOf(options: Options, model: string): number {
  return sizeOf(options.get<Record<string, number>>('ModelMaxOutputTokens'), MAX_OUTPUT, model, outputs) ?? options.get<number>('DefaultMaxOutputTokens')
}

/** The most input tokens a request to `model` can hold: ModelContextTokens, the shipped family, else DefaultContextTokens. */
export function contextOf(options: Options, model: string, betas: readonly string[] = []): number {
  const window = sizeOf(options.get<Record<string, number>>('ModelContextTokens'), CONTEXT, model, windows) ?? options.get<number>('DefaultContextTokens')
  return betas.some((beta) => LONG_CONTEXT_BETA.test(beta)) ? Math.max(window, LONG_CONTEXT) : window
}

/** Sizes found per model name, for the option object they were found with (a new object: found anew). */
interface Found {
  custom: object | undefined
  sizes: Map<string, number | null>
}
const outputs: Found = { custom: undefined, sizes: new Map() }
const windows: Found = { custom: undefined, sizes: new Map() }
const MAX_REMEMBERED = 10_000

function sizeOf(custom: Record<string, number>, shipped: Record<string, number>, model: string, found: Found): number | undefined {
  if (found.custom !== custom) {
    found.custom = custom
    found.sizes.clear()
  }
  const known = found.sizes.get(model)
  if (known !== undefined) return known ?? undefined
  const size = lookup(custom, shipped, model)
  if (found.sizes.size < MAX_REMEMBERED) found.sizes.set(model, size ?? null)
  return size
}

function lookup(custom: Record<string, number>, shipped: Record<string, number>, model: string): number | undefined {
  const names = namesOf(model)
  for (const name of names) if (Object.hasOwn(custom, name)) return custom[name]
  let best: string | undefined
  for (const name of names) {
    for (const family of Object.keys(shipped)) if (name.startsWith(family) && (best === undefined || family.length > best.length)) best = family
    if (best !== undefined) return shipped[best]
  }
  return undefined
}
