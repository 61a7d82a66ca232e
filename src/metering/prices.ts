import { GatewayError } from '../errors'
import { inputTokens, type CacheWrites, type Usage } from '../ir'
import type { OptionStore } from '../options/store'
import { DEFAULT_CALL_PRICES, DEFAULT_IMAGE_PRICES, DEFAULT_PRICES, type ListPrice } from './default-prices'
import { atTier, tiersOf, worstTier, type PriceTier, type TierPricingConfig } from './tiers'

/** How one model is billed in one group. Ratios follow new-api: quota per input token = ratio × group. */
export type Price = (
  | {
      mode: 'ratio'
      model: string
      ratio: number
      completion: number
      cacheRead: number
      cacheWrite: number
      group: number
      /** prices by the prompt's length (ModelTierPricing): the fields above are the first tier's; metering/tiers.ts picks one */
      tiers?: PriceTier[]
      /** audio input over text input (AudioRatio), and audio output over audio input (AudioCompletionRatio): set only for a model either table names */
      audio?: number
      audioCompletion?: number
    }
  | { mode: 'call'; model: string; usd: number; group: number }
  /** US$ per unit of the meter (an image of one size and quality) */
  | { mode: 'unit'; model: string; usd: number; variant: string; group: number }
  | { mode: 'free'; model: string; group: number }
) & {
  /** what the client chose multiplies the price (a service tier, a beta: metering/price-terms.ts); absent = 1 */
  multiplier?: number
}

type Table = Record<string, number>
interface Tables {
  ratio: Table
  completion: Table
  cacheRead: Table
  cacheWrite: Table
  price: Table
  group: Table
  tiers: Record<string, TierPricingConfig>
  audio: Table
  audioCompletion: Table
}

/** the store's `version`, when it has one, answers "did a price option change" in one read (a stand-in without it is compared option by option) */
type Options = Pick<OptionStore, 'get'> & { readonly version?: number }

const round9 = (n: number) => Math.round(n * 1e9) / 1e9
const DEFAULT_TABLES = fromListPrices(DEFAULT_PRICES)

function fromListPrices(list: Record<string, ListPrice>): Omit<Tables, 'price' | 'group' | 'tiers'> {
  const t: Omit<Tables, 'price' | 'group' | 'tiers'> = { ratio: {}, completion: {}, cacheRead: {}, cacheWrite: {}, audio: {}, audioCompletion: {} }
  for (const [model, p] of Object.entries(list)) {
    t.ratio[model] = round9(p.input / 2)
    if (p.input > 0) {
      t.completion[model] = round9(p.output / p.input)
      if (p.cacheRead !== undefined) t.cacheRead[model] = round9(p.cacheRead / p.input)
      if (p.cacheWrite !== undefined) t.cacheWrite[model] = round9(p.cacheWrite / p.input)
      if (p.audioInput !== undefined) t.audio[model] = round9(p.audioInput / p.input)
      if (p.audioInput && p.audioOutput !== undefined) t.audioCompletion[model] = round9(p.audioOutput / p.audioInput)
    }
  }
  return t
}

let cached: { key: unknown[]; tables: Tables; prices: Map<string, Price | null>; store: Options; version: number | undefined } | undefined
const MAX_REMEMBERED_PRICES = 10_000

/** The effective tables: shipped defaults with the option tables laid over them. Rebuilt only when an option object changes. */
function priceTables(options: Options): Tables {
  if (cached) {
    const version = options.version
    if (version !== undefined && cached.store === options && cached.version === version) return cached.tables
    if (isCurrent(options, cached.key)) {
      // another option changed (or another store asks): the same tables, and the memo of prices, still hold
      cached.store = options
      cached.version = version
      return cached.tables
    }
  }
  const key = PRICE_OPTIONS.map((k) => options.get<object>(k))
  cached = { key, tables: buildTables(key), prices: new Map(), store: options, version: options.version }
  return cached.tables
}

const PRICE_OPTIONS = ['ModelRatio', 'CompletionRatio', 'CacheRatio', 'CreateCacheRatio', 'ModelPrice', 'GroupRatio', 'ModelTierPricing', 'AudioRatio', 'AudioCompletionRatio'] as const

// per request: compares the option objects in place (building a key array each time showed in profiles)
function isCurrent(options: Options, key: unknown[]): boolean {
  for (let i = 0; i < PRICE_OPTIONS.length; i++) if (options.get<object>(PRICE_OPTIONS[i]!) !== key[i]) return false
  return true
}

function buildTables(key: unknown[]): Tables {
  const [ratio, completion, cacheRead, cacheWrite, price, group] = key as Table[]
  const tiers = key[6] as Record<string, TierPricingConfig>
  const [audio, audioCompletion] = key.slice(7) as Table[]
  const tables: Tables = {
    ratio: { ...DEFAULT_TABLES.ratio, ...ratio },
    completion: { ...DEFAULT_TABLES.completion, ...completion },
    cacheRead: { ...DEFAULT_TABLES.cacheRead, ...cacheRead },
    cacheWrite: { ...DEFAULT_TABLES.cacheWrite, ...cacheWrite },
    price: { ...DEFAULT_CALL_PRICES, ...price },
    group: { ...group },
    tiers,
    audio: { ...DEFAULT_TABLES.audio, ...audio },
    audioCompletion: { ...DEFAULT_TABLES.audioCompletion, ...audioCompletion },
  }
  return tables
}

/** Names to try for a model: as given, without a vendor prefix, without a date or `-latest` suffix. */
export function namesOf(model: string): string[] {
  const names = [model]
  const bare = model.replace(/^(models|openai|anthropic|google|deepseek)\//, '')
  const undated = bare.replace(/-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, '')
  for (const n of [bare, undated]) if (!names.includes(n)) names.push(n)
  return names
}

function lookup<V>(table: Record<string, V>, names: string[]): V | undefined {
  for (const name of names) if (Object.hasOwn(table, name)) return table[name]
  return undefined
}

export function groupRatio(options: Options, group: string): number {
  const table = priceTables(options).group
  return Object.hasOwn(table, group) ? table[group]! : 1
}

/** The model's price in the group, or undefined when nothing prices it; remembered until a price option changes. */
export function findPrice(options: Options, model: string, group: string): Price | undefined {
  const tables = priceTables(options)
  const memo = cached!.prices
  const id = `${model}\u0000${group}`
  const known = memo.get(id)
  if (known !== undefined) return known ?? undefined
  const price = priceOf(tables, options, model, group)
  if (memo.size < MAX_REMEMBERED_PRICES) memo.set(id, price ?? null)
  return price
}

function priceOf(tables: Tables, options: Options, model: string, group: string): Price | undefined {
  const names = namesOf(model)
  const g = groupRatio(options, group)
  const cache = { cacheRead: lookup(tables.cacheRead, names) ?? 1, cacheWrite: lookup(tables.cacheWrite, names) ?? 1 }
  // tiers win over a per-call and a flat token price, as in new-api
  const tiers = tiersOf(lookup(tables.tiers, names), cache)
  if (tiers) return { mode: 'ratio', model, ratio: tiers[0]!.ratio, completion: tiers[0]!.completion, cacheRead: tiers[0]!.cacheRead, cacheWrite: tiers[0]!.cacheWrite, group: g, tiers }
  const usd = lookup(tables.price, names)
  if (usd !== undefined) return { mode: 'call', model, usd, group: g }
  const ratio = lookup(tables.ratio, names)
  if (ratio === undefined) return undefined
  const price: Price = {
    mode: 'ratio',
    model,
    ratio,
    completion: lookup(tables.completion, names) ?? 1,
    ...cache,
    group: g,
  }
  const audio = lookup(tables.audio, names)
  const audioCompletion = lookup(tables.audioCompletion, names)
  if (audio !== undefined || audioCompletion !== undefined) Object.assign(price, { audio: audio ?? 1, audioCompletion: audioCompletion ?? 1 })
  return price
}

/** The price of one image of `variant` (`size/quality` or `size`), from ImagePrice over the shipped table. */
function findImagePrice(options: Options, model: string, group: string, variant: string): Price | undefined {
  const names = namesOf(model)
  const custom = options.get<Record<string, Record<string, number>>>('ImagePrice')
  const size = variant.split('/')[0]!
  for (const table of [custom, DEFAULT_IMAGE_PRICES]) {
    for (const name of names) {
      const sizes = Object.hasOwn(table, name) ? table[name]! : undefined
      if (!sizes) continue
      const usd = Object.hasOwn(sizes, variant) ? sizes[variant] : Object.hasOwn(sizes, size) ? sizes[size] : undefined
      if (usd !== undefined) return { mode: 'unit', model, usd, variant, group: groupRatio(options, group) }
    }
  }
  return undefined
}

/**
 * The price, or free in self-use mode; otherwise a 400 the client's protocol renders. An image `variant` is
 * priced per image first; a model priced per call (ModelPrice) then costs that per image, as in new-api; a model
 * priced per token still serves it.
 */
export function requirePrice(options: Options, model: string, group: string, variant?: string): Price {
  const price = (variant !== undefined ? findImagePrice(options, model, group, variant) : undefined) ?? findPrice(options, model, group)
  if (price?.mode === 'call' && variant !== undefined) return { mode: 'unit', model, usd: price.usd, variant, group: price.group }
  if (price) return price
  if (options.get<boolean>('SelfUseModeEnabled')) return { mode: 'free', model, group: groupRatio(options, group) }
  throw new GatewayError(
    400,
    'model_price_error',
    `model "${model}" has no price: an administrator must set ModelRatio or ModelPrice for it (or enable SelfUseModeEnabled)`,
    'model',
  )
}

/**
 * Quota for a usage. Cache reads, cache writes and output are priced by their own ratios; reasoning is output. A
 * tiered price is billed at the tier of the prompt's whole length (cache reads and writes included).
 */
export function quotaFor(listed: Price, usage: Usage, quotaPerUnit: number): number {
  const price = atTier(listed, inputTokens(usage))
  if (price.mode === 'free') return 0
  const group = price.group * (price.multiplier ?? 1)
  if (price.mode === 'call') return Math.round(price.usd * quotaPerUnit * group)
  if (price.mode === 'unit') return Math.round(price.usd * usage.input.noCache * quotaPerUnit * group)
  const { noCache, cacheRead, cacheWrite } = usage.input
  const oneHour = Math.min(cacheWrite, usage.input.cacheWrite1h ?? 0)
  const writes = (cacheWrite - oneHour) * price.cacheWrite + oneHour * price.cacheWrite * ONE_HOUR_WRITE
  const weighted = noCache + cacheRead * price.cacheRead + writes + (usage.output.text + usage.output.reasoning) * price.completion + audioSurcharge(price, usage)
  const quota = Math.round(round9(weighted * price.ratio * group))
  const anyTokens = noCache + cacheRead + cacheWrite + usage.output.text + usage.output.reasoning > 0
  return quota === 0 && anyTokens && price.ratio > 0 && group > 0 ? 1 : quota
}

/**
 * What audio tokens (counted among the input's uncached and the output's text tokens) cost beyond text tokens, in
 * input-token units: audio input at AudioRatio × the input price, audio output at AudioRatio × AudioCompletionRatio ×
 * it, as new-api bills realtime. A model neither table names bills audio as text.
 */
function audioSurcharge(price: Extract<Price, { mode: 'ratio' }>, usage: Usage): number {
  if (!usage.audio || price.audio === undefined) return 0
  const input = Math.min(usage.audio.input, usage.input.noCache)
  const output = Math.min(usage.audio.output, usage.output.text)
  return input * (price.audio - 1) + output * (price.audio * (price.audioCompletion ?? 1) - price.completion)
}

/**
 * A one-hour cache write's price over a five-minute one (CreateCacheRatio): Anthropic bills 2× the input price
 * against 1.25×, so a model whose five-minute writes cost 1.25× pays 2× for an hour.
 */
const ONE_HOUR_WRITE = 2 / 1.25

/**
 * The most a request can cost: every prompt token at the full input price, or at the cache-write price when the
 * request may write the cache (`writes`) and that costs more, plus the whole output allowance; a tiered price at the
 * worst tier the prompt can reach (metering/tiers.ts).
 */
export function estimateQuota(listed: Price, promptTokens: number, maxOutputTokens: number, quotaPerUnit: number, writes?: CacheWrites, audio?: boolean): number {
  const price = worstTier(listed, promptTokens)
  const output = { text: maxOutputTokens, reasoning: 0 }
  if (audio) return quotaFor(price, { input: { noCache: promptTokens, cacheRead: 0, cacheWrite: 0 }, output, audio: { input: promptTokens, output: maxOutputTokens } }, quotaPerUnit)
  if (writes && price.mode === 'ratio' && price.cacheWrite * (writes === '1h' ? ONE_HOUR_WRITE : 1) > 1) {
    const input = { noCache: 0, cacheRead: 0, cacheWrite: promptTokens, cacheWrite1h: writes === '1h' ? promptTokens : 0 }
    return quotaFor(price, { input, output }, quotaPerUnit)
  }
  return quotaFor(price, { input: { noCache: promptTokens, cacheRead: 0, cacheWrite: 0 }, output }, quotaPerUnit)
}

/** A tier as the pricing routes show it: the prompt lengths it covers and its US$ per million tokens. */
export interface TierInUsd {
  min_tokens: number
  max_tokens?: number
  input: number
  output: number
  cache_read: number
  cache_write: number
}

/** US$ per million tokens (token prices, each tier's too) or per call, for display. */
export function priceInUsd(price: Price, quotaPerUnit: number): { mode: Price['mode']; per_call?: number; input?: number; output?: number; cache_read?: number; cache_write?: number; tiers?: TierInUsd[] } {
  if (price.mode !== 'ratio') return { mode: price.mode, per_call: price.mode === 'call' || price.mode === 'unit' ? round9(price.usd * price.group) : 0 }
  const usd = (ratios: Pick<PriceTier, 'ratio' | 'completion' | 'cacheRead' | 'cacheWrite'>) => {
    const input = (ratios.ratio * price.group * 1_000_000) / quotaPerUnit
    return { input: round9(input), output: round9(input * ratios.completion), cache_read: round9(input * ratios.cacheRead), cache_write: round9(input * ratios.cacheWrite) }
  }
  if (!price.tiers) return { mode: price.mode, ...usd(price) }
  const tiers = price.tiers.map((tier) => ({ min_tokens: tier.min, ...(tier.max !== undefined ? { max_tokens: tier.max } : {}), ...usd(tier) }))
  return { mode: price.mode, ...usd(price), tiers }
}
