/**
 * Prices another instance publishes, read into new-api's ratio tables: new-api's `/api/ratio_config` (the tables
 * themselves) and `/api/pricing` (a list of models with their ratios), Tollgate's `/api/pricing` (US$ per 1M
 * tokens), and models.dev's `api.json` (providers → models → cost in US$ per 1M tokens).
 */
import type { TierPricingConfig } from '../../metering/tiers'
import { TIER_OPTIONS } from '../../options/tier-options'

/** The numeric tables (new-api's ratio_config names). */
const RATIO_FIELDS = ['model_ratio', 'completion_ratio', 'cache_ratio', 'create_cache_ratio', 'model_price'] as const
/** Every synced table: the ratios, and the prices by prompt length (new-api's `model_tier_pricing`, ModelTierPricing). */
export const SYNC_FIELDS = [...RATIO_FIELDS, 'model_tier_pricing'] as const
type RatioField = (typeof RATIO_FIELDS)[number]
export type SyncField = (typeof SYNC_FIELDS)[number]
/** One model's value in a table: a number, or (model_tier_pricing) its tier configuration */
export type SyncValue = number | TierPricingConfig
export type SyncTables = Record<RatioField, Record<string, number>> & { model_tier_pricing: Record<string, TierPricingConfig> }

/** Most models one source may bring (models.dev lists a few thousand). */
const MAX_MODELS = 20_000

const round9 = (n: number) => Math.round(n * 1e9) / 1e9
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const price = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined)

function emptyTables(): SyncTables {
  return { model_ratio: {}, completion_ratio: {}, cache_ratio: {}, create_cache_ratio: {}, model_price: {}, model_tier_pricing: {} }
}

class Collector {
  readonly tables = emptyTables()
  private models = new Set<string>()
  set(field: RatioField, model: string, value: unknown): void {
    const n = price(value)
    if (n === undefined || !this.named(model)) return
    this.tables[field][model] = round9(n)
  }
  /** A model's tiers as ModelTierPricing stores them, kept only when the option's own check accepts them. */
  setTiers(model: string, config: unknown): void {
    if (!isObject(config) || !Array.isArray(config.tiers) || config.tiers.length === 0) return
    const tiers = config.tiers.map((tier: unknown) => (isObject(tier) ? Object.fromEntries(Object.entries(tier).filter(([, v]) => v !== undefined).map(([k, v]) => [k, typeof v === 'number' ? round9(v) : v])) : tier))
    const clean = { enabled: config.enabled !== false, basis: 'prompt_tokens', tiers } as TierPricingConfig
    if (TIER_OPTIONS.ModelTierPricing!.check!({ [model]: clean }) !== undefined || !this.named(model)) return
    this.tables.model_tier_pricing[model] = clean
  }
  private named(model: string): boolean {
    if (!model.trim() || model.length > 200) return false
    if (!this.models.has(model)) {
      if (this.models.size >= MAX_MODELS) throw new Error(`more than ${MAX_MODELS} models`)
      this.models.add(model)
    }
    return true
  }
  /** US$ per 1M tokens → the model ratio (at this instance's QuotaPerUnit) and the other prices as multiples of input. */
  setDollars(model: string, cost: { input?: unknown; output?: unknown; cache_read?: unknown; cache_write?: unknown }, quotaPerUnit: number): void {
    const input = price(cost.input)
    if (input === undefined) return
    this.set('model_ratio', model, (input * quotaPerUnit) / 1_000_000)
    if (input === 0) return
    const multiple = (usd: unknown) => (price(usd) === undefined ? undefined : price(usd)! / input)
    this.set('completion_ratio', model, multiple(cost.output))
    this.set('cache_ratio', model, multiple(cost.cache_read))
    this.set('create_cache_ratio', model, multiple(cost.cache_write))
  }
}

/** The tables a source's JSON holds, or an error naming what it is not. */
export function readSource(body: unknown, quotaPerUnit: number): SyncTables {
  const into = new Collector()
  if (isObject(body) && 'success' in body) {
    if (body.success !== true) throw new Error(`the source answered success: false${typeof body.message === 'string' ? ` (${body.message.slice(0, 200)})` : ''}`)
    readEnvelope(body.data, into, quotaPerUnit)
  } else if (isObject(body) && Object.values(body).some((provider) => isObject(provider) && isObject(provider.models))) {
    readModelsDev(body, into, quotaPerUnit)
  } else {
    throw new Error('not a pricing document: expected {success, data} (new-api, Tollgate) or models.dev providers → models')
  }
  return into.tables
}

function readEnvelope(data: unknown, into: Collector, quotaPerUnit: number): void {
  if (isObject(data) && SYNC_FIELDS.some((field) => isObject(data[field]))) {
    // new-api's /api/ratio_config: the tables themselves (model_tier_pricing in ModelTierPricing's shape)
    for (const field of RATIO_FIELDS) if (isObject(data[field])) for (const [model, value] of Object.entries(data[field] as object)) into.set(field, model, value)
    if (isObject(data.model_tier_pricing)) for (const [model, config] of Object.entries(data.model_tier_pricing)) into.setTiers(model, config)
  } else if (Array.isArray(data)) {
    // new-api's /api/pricing: quota_type 1 is per call (model_price), 0 per token
    for (const item of data) {
      if (!isObject(item) || typeof item.model_name !== 'string') continue
      if (item.quota_type === 1) into.set('model_price', item.model_name, item.model_price)
      else for (const field of RATIO_FIELDS.slice(0, 4)) into.set(field, item.model_name, item[field])
    }
  } else if (isObject(data) && Array.isArray(data.items)) {
    // Tollgate's /api/pricing: US$ at the caller's group ratio, taken back to the base price
    const group = price(data.group_ratio) || 1
    for (const item of data.items) {
      if (!isObject(item) || typeof item.model !== 'string' || item.priced !== true) continue
      if (item.mode === 'call') into.set('model_price', item.model, (price(item.per_call) ?? NaN) / group)
      else if (item.mode === 'ratio') {
        const base = (value: unknown) => (price(value) === undefined ? undefined : price(value)! / group)
        into.setDollars(item.model, { input: base(item.input), output: base(item.output), cache_read: base(item.cache_read), cache_write: base(item.cache_write) }, quotaPerUnit)
        if (Array.isArray(item.tiers)) into.setTiers(item.model, { tiers: item.tiers.map((tier: unknown) => tierOfUsd(tier, group)) })
      }
    }
  } else {
    throw new Error('data is neither ratio tables nor a pricing list')
  }
}

/** A tier of Tollgate's /api/pricing (US$ per 1M tokens at the group's ratio) as ModelTierPricing stores it (at the base price). */
function tierOfUsd(tier: unknown, group: number): unknown {
  if (!isObject(tier)) return tier
  const base = (value: unknown) => (price(value) === undefined ? undefined : round9(price(value)! / group))
  return { min_tokens: tier.min_tokens, max_tokens: tier.max_tokens, input_price: base(tier.input), completion_price: base(tier.output), cache_read_price: base(tier.cache_read), cache_write_price: base(tier.cache_write) }
}

/** models.dev: the first provider (in the document's order) that prices a model id sets it. */
function readModelsDev(body: Record<string, unknown>, into: Collector, quotaPerUnit: number): void {
  const seen = new Set<string>()
  for (const provider of Object.values(body)) {
    if (!isObject(provider) || !isObject(provider.models)) continue
    for (const [key, model] of Object.entries(provider.models)) {
      if (!isObject(model) || !isObject(model.cost)) continue
      const id = typeof model.id === 'string' ? model.id : key
      if (seen.has(id)) continue
      seen.add(id)
      into.setDollars(id, model.cost, quotaPerUnit)
    }
  }
}
