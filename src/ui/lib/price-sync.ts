import { formatDollars } from './format'
import { ratioToDollars } from './prices'

/** The price fields `/api/ratio_sync` compares (new-api's option tables, one row per model and field). */
export type SyncField = 'model_ratio' | 'completion_ratio' | 'cache_ratio' | 'create_cache_ratio' | 'model_price'

/** How a field's value reads: money per 1M input tokens or per call, or a multiple of the input price. */
type SyncValue = { kind: 'perMillion' | 'perCall'; amount: string } | { kind: 'multiple'; times: string }

/**
 * A synced value as people read prices everywhere else in the console (US$, never a bare ratio): the model
 * ratio as US$ per 1M input tokens at the instance's QuotaPerUnit, the fixed price per call, the output and
 * cache ratios as multiples of the input price. Undefined for no value (added or removed).
 */
export function syncValue(field: SyncField, value: number | null | undefined, quotaPerUnit: number, locale: string): SyncValue | undefined {
  if (value === null || value === undefined) return undefined
  if (field === 'model_ratio') return { kind: 'perMillion', amount: formatDollars(ratioToDollars(value, quotaPerUnit), locale) }
  if (field === 'model_price') return { kind: 'perCall', amount: formatDollars(value, locale) }
  return { kind: 'multiple', times: new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(value) }
}
