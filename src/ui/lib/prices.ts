/**
 * Prices as people read them (US$ per million tokens, or per call) and as the options store them (ratios).
 * A model ratio is quota per input token: US$ per 1M input tokens = ratio × 1,000,000 / QuotaPerUnit, so with
 * the default 500,000 units per US$1, ratio 1 = US$2 per 1M input tokens (src/metering/prices.ts). Output and
 * cache prices are multiples of the input price (completion, cache-read and cache-write ratios).
 */

export const DEFAULT_QUOTA_PER_UNIT = 500_000
const round9 = (n: number) => Math.round(n * 1e9) / 1e9

/** Model ratio → US$ per 1M input tokens. */
export function ratioToDollars(ratio: number, quotaPerUnit = DEFAULT_QUOTA_PER_UNIT): number {
  return round9((ratio * 1_000_000) / quotaPerUnit)
}

/** US$ per 1M input tokens → model ratio. */
export function dollarsToRatio(dollars: number, quotaPerUnit = DEFAULT_QUOTA_PER_UNIT): number {
  return round9((dollars * quotaPerUnit) / 1_000_000)
}

/** A price as a multiple of the input price (completion or cache ratio); undefined when the input is free. */
export function multipleOf(price: number, inputPrice: number): number | undefined {
  return inputPrice > 0 ? round9(price / inputPrice) : undefined
}

export const PRICE_OPTION_KEYS = ['ModelRatio', 'CompletionRatio', 'CacheRatio', 'CreateCacheRatio', 'ModelPrice', 'GroupRatio'] as const
export type PriceOptionKey = (typeof PRICE_OPTION_KEYS)[number]
export type PriceTable = Record<string, number>
export type PriceTables = Record<PriceOptionKey, PriceTable>
/** The tables that price models (GroupRatio prices groups). */
export type ModelTableKey = Exclude<PriceOptionKey, 'GroupRatio'>

export type PriceTableError = { code: 'json' } | { code: 'object' } | { code: 'name' } | { code: 'number'; name: string }

/** An option table as typed: a JSON object of name → non-negative number (the server's check, before sending). */
export function parsePriceTable(text: string): { table: PriceTable } | { error: PriceTableError } {
  let value: unknown
  try {
    value = JSON.parse(text.trim() || '{}')
  } catch {
    return { error: { code: 'json' } }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: { code: 'object' } }
  const table: PriceTable = {}
  for (const [name, n] of Object.entries(value)) {
    if (!name.trim()) return { error: { code: 'name' } }
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return { error: { code: 'number', name } }
    table[name] = n
  }
  return { table }
}

/** A table as the editor shows it: sorted by name, one entry a line. */
export function formatPriceTable(table: PriceTable): string {
  const sorted = Object.fromEntries(Object.entries(table).sort(([a], [b]) => a.localeCompare(b)))
  return Object.keys(sorted).length ? JSON.stringify(sorted, null, 2) : '{}'
}

/** One model's price as typed in "Set price": per token (US$ per 1M tokens) or a fixed US$ per call. */
export type ModelPriceInput =
  | { mode: 'token'; input: number; output: number; cacheRead?: number; cacheWrite?: number }
  | { mode: 'call'; perCall: number }

export type ModelPriceError = 'outputWithoutInput'

/**
 * The option tables after setting one model's price, and which of them changed. Per token: the model ratio
 * from the input price, the completion and cache ratios as multiples of it (a cache price left empty removes
 * the model's own cache ratio, so the shipped one applies), and no fixed price (it would win). Per call: the
 * fixed price; the token ratios stay for when it is removed.
 */
export function applyModelPrice(
  tables: Pick<PriceTables, ModelTableKey>,
  model: string,
  price: ModelPriceInput,
  quotaPerUnit = DEFAULT_QUOTA_PER_UNIT,
): { tables: Pick<PriceTables, ModelTableKey>; changed: ModelTableKey[] } | { error: ModelPriceError } {
  const next = {
    ModelRatio: { ...tables.ModelRatio },
    CompletionRatio: { ...tables.CompletionRatio },
    CacheRatio: { ...tables.CacheRatio },
    CreateCacheRatio: { ...tables.CreateCacheRatio },
    ModelPrice: { ...tables.ModelPrice },
  }
  const set = (table: PriceTable, value: number | undefined) => {
    if (value === undefined) delete table[model]
    else table[model] = value
  }
  if (price.mode === 'call') {
    next.ModelPrice[model] = round9(price.perCall)
  } else {
    if (price.input === 0 && (price.output > 0 || (price.cacheRead ?? 0) > 0 || (price.cacheWrite ?? 0) > 0)) return { error: 'outputWithoutInput' }
    next.ModelRatio[model] = dollarsToRatio(price.input, quotaPerUnit)
    set(next.CompletionRatio, price.input > 0 ? multipleOf(price.output, price.input) : undefined)
    set(next.CacheRatio, price.cacheRead === undefined ? undefined : multipleOf(price.cacheRead, price.input))
    set(next.CreateCacheRatio, price.cacheWrite === undefined ? undefined : multipleOf(price.cacheWrite, price.input))
    delete next.ModelPrice[model]
  }
  const changed = (Object.keys(next) as (keyof typeof next)[]).filter((key) => !sameTable(next[key], tables[key]))
  return { tables: next, changed }
}

function sameTable(a: PriceTable, b: PriceTable): boolean {
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && b[k] === a[k])
}
