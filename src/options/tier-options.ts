import type { OptionDefinition } from './option-definition'

/** Most tiers one model may have: enough for any vendor's price sheet, bounded for the check and the editor. */
const MAX_PRICE_TIERS = 16

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const isPrice = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0

/** One tier: `min_tokens`, `max_tokens` (all but the last), US$ per 1M input / output tokens, optional cache prices. */
function tierProblem(tier: unknown, index: number, last: boolean): string | undefined {
  const at = `tier ${index}`
  if (!isObject(tier)) return `${at} must be an object`
  for (const key of Object.keys(tier)) {
    if (!['min_tokens', 'max_tokens', 'input_price', 'completion_price', 'cache_read_price', 'cache_write_price'].includes(key)) return `${at} has an unknown field "${key}"`
  }
  if (!isCount(tier.min_tokens)) return `${at} min_tokens must be a non-negative integer`
  if (!isPrice(tier.input_price) || !isPrice(tier.completion_price ?? 0)) return `${at} input_price and completion_price must be non-negative numbers (US$ per 1M tokens)`
  for (const key of ['cache_read_price', 'cache_write_price']) if (tier[key] !== undefined && !isPrice(tier[key])) return `${at} ${key} must be a non-negative number`
  const paidBeside = (tier.completion_price ?? 0) !== 0 || Boolean(tier.cache_read_price) || Boolean(tier.cache_write_price)
  if (tier.input_price === 0 && paidBeside) return `${at} cannot price output or cache when input_price is 0`
  if (index === 0 && tier.min_tokens !== 0) return 'the first tier must start at min_tokens 0'
  if (last) return tier.max_tokens === undefined ? undefined : 'the last tier must omit max_tokens'
  if (!isCount(tier.max_tokens) || (tier.max_tokens as number) <= (tier.min_tokens as number)) return `${at} max_tokens must be an integer above min_tokens`
  return undefined
}

/** new-api's `ModelTierPricing`: model → { enabled, basis: "prompt_tokens", tiers: [...] }, tiers contiguous and in order. */
const tierPricingTable = (value: unknown): string | undefined => {
  if (!isObject(value)) return 'must be an object of model → { enabled, basis, tiers }'
  for (const [model, config] of Object.entries(value)) {
    if (!model.trim()) return 'has an empty model name'
    if (!isObject(config)) return `"${model}" must be an object { enabled, basis, tiers }`
    if (config.enabled !== undefined && typeof config.enabled !== 'boolean') return `"${model}" enabled must be true or false`
    if (config.basis !== undefined && config.basis !== '' && config.basis !== 'prompt_tokens') return `"${model}" basis must be "prompt_tokens" (the prompt's tokens, cached ones included)`
    const tiers = config.tiers ?? []
    if (!Array.isArray(tiers) || tiers.length > MAX_PRICE_TIERS) return `"${model}" tiers must be a list of at most ${MAX_PRICE_TIERS} tiers`
    if (config.enabled && tiers.length === 0) return `"${model}" is enabled without tiers`
    for (let i = 0; i < tiers.length; i++) {
      const problem = tierProblem(tiers[i], i, i === tiers.length - 1)
      if (problem) return `"${model}" ${problem}`
      if (i > 0 && tiers[i].min_tokens !== tiers[i - 1].max_tokens) return `"${model}" tiers must be contiguous: tier ${i} must start at tier ${i - 1}'s max_tokens`
    }
  }
  return undefined
}

/** Prices by prompt length (metering/tiers.ts, docs/routing.md "Prices"). */
export const TIER_OPTIONS: Record<string, OptionDefinition> = {
  ModelTierPricing: {
    type: 'json',
    default: '{}',
    description:
      'model → { "enabled": true, "basis": "prompt_tokens", "tiers": [{ "min_tokens": 0, "max_tokens": 200000, "input_price": 3, "completion_price": 15, "cache_read_price": 0.3 }, { "min_tokens": 200000, "input_price": 6, … }] }: US$ per 1M tokens by the prompt\'s length (cached tokens included); wins over ModelRatio and ModelPrice. cache_read_price and cache_write_price are optional (else CacheRatio / CreateCacheRatio of the tier\'s input price)',
    check: tierPricingTable,
  },
}
