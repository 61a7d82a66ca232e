import type { CacheWrites } from '../../ir'
import type { PriceChoices } from '../../protocols/types'

/** The unit a request is billed in: tokens for chat, embeddings and rerank; the operation's own count otherwise. */
export type MeterUnit = 'token' | 'character' | 'second' | 'image'

/**
 * What metering reserves and bills a request on, whatever the operation: its model, the input quantity
 * (exact, or an upper bound that `count()` replaces when it must) and the output allowance.
 */
export interface Meter extends PriceChoices {
  model: string
  stream: boolean
  unit: MeterUnit
  /** prompt tokens, or the quantity in `unit`; an upper bound when `exact` is false */
  input: number
  exact: boolean
  /** most output tokens of one output; undefined means the DefaultMaxOutputTokens option (chat), 0 for operations that generate no text */
  maxOutput?: number
  /** outputs generated, each up to `maxOutput` (default `choices.count`, else 1): legacy completions' n × prompts */
  outputs?: number
  /** the exact input count when `input` is a bound (tokenizes on demand) */
  count(): number
  /** what `count` reads, back in memory if it was let go of while the upstream answered (undefined: it is here) */
  countable?(): Promise<void> | undefined
  /** the body asks the vendor to write its prompt to a cache, for this long (`cache_control`, `cachePoint`): reserved at the write price */
  cacheWrites?: CacheWrites
  /** every token of the allowance may be audio (a realtime session): reserved at the model's audio prices */
  audio?: boolean
  /** the size/quality an image is priced by (`1024x1024/hd`) */
  variant?: string
  /** a task's price multipliers (new-api's OtherRatios: a video's seconds and size): the price times each */
  ratios?: Record<string, number>
  /** set by metering's reserve: the price choices it does not price, which the relay takes out before dispatch */
  declined?: PriceChoices
  /** set by metering's reserve for a request without an output cap: the cap (per output) the relay sends it with */
  outputCap?: number
  /** set by metering's reserve: what it decided that the log row's warnings say (an injected cap, input by reference) */
  notes?: string[]
}

/** A meter whose input is known exactly (characters, images, or tokens already counted). */
export function exactMeter(model: string, unit: MeterUnit, input: number, options: { stream?: boolean; maxOutput?: number; variant?: string; choices?: PriceChoices['choices'] } = {}): Meter {
  return { model, stream: options.stream ?? false, unit, input, exact: true, maxOutput: options.maxOutput ?? 0, count: () => input, variant: options.variant, choices: options.choices }
}
