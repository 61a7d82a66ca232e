/**
 * Prices by prompt length as "Set price" edits them and as ModelTierPricing stores them (new-api's shape: US$ per
 * 1M tokens per tier, tiers contiguous from 0, the last open-ended). Server side: src/metering/tiers.ts.
 */

/** One tier as typed: where it starts and its US$ per 1M tokens (a cache price left empty follows CacheRatio). */
export interface TierInput {
  from: number
  input: number
  output: number
  cacheRead?: number
}

interface StoredTier {
  min_tokens: number
  max_tokens?: number
  input_price: number
  completion_price: number
  cache_read_price?: number
}
export interface TierConfig {
  enabled: boolean
  basis: 'prompt_tokens'
  tiers: StoredTier[]
}
export type TierTable = Record<string, TierConfig>

/** A tier as the pricing routes show it (US$ per 1M tokens). */
export interface TierShown {
  min_tokens: number
  max_tokens?: number
  input: number
  output: number
  cache_read?: number
  cache_write?: number
}

export type TierError = { code: 'first' } | { code: 'order'; index: number } | { code: 'freeInput'; index: number }

/** The stored config for the typed tiers, or what is wrong: the first from 0, each above the last, output only with input. */
export function tiersToConfig(tiers: readonly TierInput[]): { config: TierConfig } | { error: TierError } {
  if (tiers.length === 0 || tiers[0]!.from !== 0) return { error: { code: 'first' } }
  const stored: StoredTier[] = []
  for (const [index, tier] of tiers.entries()) {
    if (index > 0 && tier.from <= tiers[index - 1]!.from) return { error: { code: 'order', index } }
    if (tier.input === 0 && (tier.output > 0 || (tier.cacheRead ?? 0) > 0)) return { error: { code: 'freeInput', index } }
    const next = tiers[index + 1]
    stored.push({
      min_tokens: tier.from,
      ...(next ? { max_tokens: next.from } : {}),
      input_price: tier.input,
      completion_price: tier.output,
      ...(tier.cacheRead !== undefined ? { cache_read_price: tier.cacheRead } : {}),
    })
  }
  return { config: { enabled: true, basis: 'prompt_tokens', tiers: stored } }
}

/** The tiers a price line shows, as the editor starts from them. */
export function tiersFromShown(tiers: readonly TierShown[]): TierInput[] {
  return tiers.map((tier) => ({ from: tier.min_tokens, input: tier.input, output: tier.output, cacheRead: tier.cache_read }))
}

/** ModelTierPricing with the model's tiers set (a config) or removed (undefined, so its flat price applies again). */
export function applyModelTiers(table: TierTable, model: string, config: TierConfig | undefined): TierTable {
  const next = { ...table }
  if (config) next[model] = config
  else delete next[model]
  return next
}
