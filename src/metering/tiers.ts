/** One prompt-length tier of a token price: the tokens it covers and its ratios (as a ratio price's). */
export interface PriceTier {
  min: number
  /** absent: the last tier, open-ended */
  max?: number
  ratio: number
  completion: number
  cacheRead: number
  cacheWrite: number
}

/** A tier as ModelTierPricing stores it (new-api's names): US$ per 1M tokens. */
interface TierConfig {
  min_tokens: number
  max_tokens?: number
  input_price: number
  completion_price?: number
  cache_read_price?: number
  cache_write_price?: number
}
export interface TierPricingConfig {
  enabled?: boolean
  basis?: string
  tiers?: TierConfig[]
}

/** What tiers change of a price (prices.ts' ratio price; typed here so that this file imports nothing). */
interface RatioLike {
  mode: 'ratio'
  ratio: number
  completion: number
  cacheRead: number
  cacheWrite: number
  tiers?: readonly PriceTier[]
}
type AnyPrice = { mode: string }
const tiered = (price: AnyPrice): RatioLike | undefined => (price.mode === 'ratio' && (price as RatioLike).tiers?.length ? (price as RatioLike) : undefined)

/**
 * Another vendor's tokenizer counts the same prompt differently from ours (o200k): Claude's up to about a fifth
 * more. A tier is reserved for when the prompt we counted, this much larger, reaches it.
 */
const VENDOR_COUNT_SLACK = 1.25

const round9 = (n: number) => Math.round(n * 1e9) / 1e9

/**
 * The tiers of an enabled config as ratios: input US$/1M ÷ 2 is the model ratio (new-api's); the cache prices, when
 * a tier omits them, stay the model's cache ratios (`base`) of the tier's own input price.
 */
export function tiersOf(config: TierPricingConfig | undefined, base: { cacheRead: number; cacheWrite: number }): PriceTier[] | undefined {
  if (!config?.enabled || !config.tiers?.length) return undefined
  return config.tiers.map((tier) => {
    const input = tier.input_price
    const multiple = (usd: number | undefined, fallback: number) => (input === 0 ? 0 : usd === undefined ? fallback : round9(usd / input))
    const priced: PriceTier = {
      min: tier.min_tokens,
      ratio: round9(input / 2),
      completion: multiple(tier.completion_price ?? 0, 0),
      cacheRead: multiple(tier.cache_read_price, base.cacheRead),
      cacheWrite: multiple(tier.cache_write_price, base.cacheWrite),
    }
    if (tier.max_tokens !== undefined) priced.max = tier.max_tokens
    return priced
  })
}

/** Which tier a prompt of `promptTokens` (cached tokens included) falls in: min ≤ tokens < max, as new-api. */
function tierIndex(tiers: readonly PriceTier[], promptTokens: number): number {
  const index = tiers.findIndex((tier) => promptTokens >= tier.min && (tier.max === undefined || promptTokens < tier.max))
  return index < 0 ? 0 : index
}

/** The price of the tier that applies to the prompt (a price without tiers is returned as it is). */
export function atTier<P extends AnyPrice>(price: P, promptTokens: number): P {
  const ratios = tiered(price)
  if (!ratios) return price
  return flat(ratios, ratios.tiers![tierIndex(ratios.tiers!, promptTokens)]!) as unknown as P
}

/**
 * The reservation's price: no tier that can apply to the prompt is cheaper in any part. The tiers that can apply
 * start at or below the prompt's bound (our count × VENDOR_COUNT_SLACK); each part (input, output, cache read,
 * cache write) is priced at the highest of them, so the estimate covers whichever tier the upstream's count lands in.
 */
export function worstTier<P extends AnyPrice>(price: P, promptTokens: number): P {
  const ratios = tiered(price)
  if (!ratios) return price
  const reachable = ratios.tiers!.filter((tier) => tier.min <= promptTokens * VENDOR_COUNT_SLACK)
  const most = (part: (tier: PriceTier) => number) => Math.max(...reachable.map(part))
  const ratio = most((tier) => tier.ratio)
  if (ratio === 0) return flat(ratios, reachable[0]!) as unknown as P
  const perInput = (part: (tier: PriceTier) => number) => round9(most((tier) => tier.ratio * part(tier)) / ratio)
  return flat(ratios, { min: 0, ratio, completion: perInput((tier) => tier.completion), cacheRead: perInput((tier) => tier.cacheRead), cacheWrite: perInput((tier) => tier.cacheWrite) }) as unknown as P
}

function flat(price: RatioLike, tier: PriceTier): RatioLike {
  const { tiers: _tiers, ...rest } = price
  return { ...rest, ratio: tier.ratio, completion: tier.completion, cacheRead: tier.cacheRead, cacheWrite: tier.cacheWrite }
}

/** What a log row says of the tier it was billed at (new-api's `tier_*` names). */
export function tierNote(price: AnyPrice, promptTokens: number) {
  const ratios = tiered(price)
  if (!ratios) return undefined
  const index = tierIndex(ratios.tiers!, promptTokens)
  const tier = ratios.tiers![index]!
  return { tier_index: index, tier_min_tokens: tier.min, ...(tier.max !== undefined ? { tier_max_tokens: tier.max } : {}), tier_basis_value: promptTokens }
}
