import { formatDollars } from './format'
import { ratioToDollars } from './prices'

/** The price fields `/api/ratio_sync` compares (new-api's option tables, one row per model and field). */
export type SyncField = 'model_ratio' | 'completion_ratio' | 'cache_ratio' | 'create_cache_ratio' | 'model_price' | 'model_tier_pricing'
/** A ratio or a price; for model_tier_pricing, the model's tiers in US$ per 1M tokens (ModelTierPricing's shape). */
export type SyncRaw = number | { tiers: { min_tokens: number; max_tokens?: number; input_price: number; completion_price?: number }[] }
/** One tier as read: the prompt lengths it covers and its input and output prices. */
interface TierWords {
  range: string
  input: string
  output: string
}

/** How a field's value reads: money per 1M input tokens or per call, or a multiple of the input price. */
type SyncValue = { kind: 'perMillion' | 'perCall'; amount: string } | { kind: 'multiple'; times: string } | { kind: 'tiers'; tiers: TierWords[] }

/**
 * A synced value as people read prices everywhere else in the console (US$, never a bare ratio): the model
 * ratio as US$ per 1M input tokens at the instance's QuotaPerUnit, the fixed price per call, the output and
 * cache ratios as multiples of the input price. Undefined for no value (added or removed).
 */
export function syncValue(field: SyncField, value: SyncRaw | null | undefined, quotaPerUnit: number, locale: string): SyncValue | undefined {
  if (value === null || value === undefined) return undefined
  if (typeof value === 'object') return { kind: 'tiers', tiers: value.tiers.map((tier) => tierWords(tier, locale)) }
  if (field === 'model_ratio') return { kind: 'perMillion', amount: formatDollars(ratioToDollars(value, quotaPerUnit), locale) }
  if (field === 'model_price') return { kind: 'perCall', amount: formatDollars(value, locale) }
  return { kind: 'multiple', times: new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(value) }
}

function tierWords(tier: Exclude<SyncRaw, number>['tiers'][number], locale: string): TierWords {
  const count = new Intl.NumberFormat(locale)
  const range = tier.max_tokens === undefined ? `${count.format(tier.min_tokens)}+` : `${count.format(tier.min_tokens)}–${count.format(tier.max_tokens)}`
  return { range, input: formatDollars(tier.input_price, locale), output: formatDollars(tier.completion_price ?? 0, locale) }
}
