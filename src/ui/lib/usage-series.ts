/**
 * The dashboard's chart data: the server's hourly usage rows (`GET /api/data/…`) summed into hour or day
 * buckets in the browser's time zone, one series per model for the busiest few and "other" for the rest.
 */

export type Granularity = 'hour' | 'day'
export type RangeId = '24h' | '7d' | '30d'
export const RANGE_IDS: readonly RangeId[] = ['24h', '7d', '30d']

/** How many buckets each range spans: hours, or local calendar days ending today (24 h spans yesterday and today). */
const RANGE_SPAN: Record<RangeId, { hours: number; days: number }> = {
  '24h': { hours: 24, days: 2 },
  '7d': { hours: 7 * 24, days: 7 },
  '30d': { hours: 30 * 24, days: 30 },
}

/** The granularity that reads best for a range: hours for a day, days for a week or a month. */
export const defaultGranularity = (range: RangeId): Granularity => (range === '24h' ? 'hour' : 'day')

export interface UsageRow {
  created_at: number
  model_name: string
  count: number
  quota: number
  token_used: number
}

/** The start (unix seconds) of the local hour or day holding `seconds`. */
export function bucketOf(seconds: number, unit: Granularity): number {
  const date = new Date(seconds * 1000)
  if (unit === 'hour') date.setMinutes(0, 0, 0)
  else date.setHours(0, 0, 0, 0)
  return Math.floor(date.getTime() / 1000)
}

/** The bucket after `bucket`: an hour later, or the next local midnight (a day may last 23 or 25 hours). */
export function nextBucket(bucket: number, unit: Granularity): number {
  if (unit === 'hour') return bucket + 3600
  const date = new Date(bucket * 1000)
  return Math.floor(new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).getTime() / 1000)
}

export interface UsageWindow {
  /** first second asked for (the first bucket's start) */
  start: number
  /** last second asked for (now) */
  end: number
  /** bucket starts, oldest first; the last one holds `now` */
  buckets: number[]
}

/** The buckets of a range ending at `now`, and the time span to ask the server for. */
export function usageWindow(range: RangeId, unit: Granularity, now: number): UsageWindow {
  const span = RANGE_SPAN[range]
  const last = bucketOf(now, unit)
  let first: number
  if (unit === 'hour') first = last - (span.hours - 1) * 3600
  else {
    const date = new Date(last * 1000)
    first = Math.floor(new Date(date.getFullYear(), date.getMonth(), date.getDate() - (span.days - 1)).getTime() / 1000)
  }
  const buckets: number[] = []
  for (let bucket = first; bucket <= last; bucket = nextBucket(bucket, unit)) buckets.push(bucket)
  return { start: first, end: now, buckets }
}

/** The series name standing for every model outside the top few. */
export const OTHER = '\u0000other'

export interface Totals {
  count: number
  tokens: number
  quota: number
}

export interface UsageSeries {
  /** bucket starts (unix seconds) */
  x: number[]
  /** one name per series: the busiest models first, then OTHER when some were folded into it */
  models: string[]
  /** [series][bucket] */
  count: number[][]
  tokens: number[][]
  quota: number[][]
  /** per series, over the whole window */
  modelTotals: Totals[]
  totals: Totals
}

export type Metric = 'count' | 'tokens' | 'quota'

/**
 * Sum rows into buckets, one series per model. Models are ranked by requests (then quota, then name); the
 * first `top` keep their own series and the rest share OTHER, unless only one would be left over (then it
 * keeps its own). Rows outside the buckets are left out.
 */
export function aggregateUsage(rows: readonly UsageRow[], buckets: readonly number[], unit: Granularity, top = 5): UsageSeries {
  const index = new Map(buckets.map((bucket, i) => [bucket, i]))
  const perModel = new Map<string, Totals>()
  const inside: { row: UsageRow; at: number }[] = []
  for (const row of rows) {
    const at = index.get(bucketOf(row.created_at, unit))
    if (at === undefined) continue
    inside.push({ row, at })
    const sum = perModel.get(row.model_name) ?? { count: 0, tokens: 0, quota: 0 }
    sum.count += row.count
    sum.tokens += row.token_used
    sum.quota += row.quota
    perModel.set(row.model_name, sum)
  }
  const ranked = [...perModel.entries()]
    .sort(([nameA, a], [nameB, b]) => b.count - a.count || b.quota - a.quota || (nameA < nameB ? -1 : nameA > nameB ? 1 : 0))
    .map(([name]) => name)
  const own = ranked.length <= top + 1 ? ranked : ranked.slice(0, top)
  const models = own.length < ranked.length ? [...own, OTHER] : own
  const seriesOf = new Map(own.map((name, i) => [name, i]))
  const zeros = () => models.map(() => buckets.map(() => 0))
  const count = zeros()
  const tokens = zeros()
  const quota = zeros()
  const modelTotals = models.map(() => ({ count: 0, tokens: 0, quota: 0 }))
  for (const { row, at } of inside) {
    const s = seriesOf.get(row.model_name) ?? models.length - 1
    count[s]![at]! += row.count
    tokens[s]![at]! += row.token_used
    quota[s]![at]! += row.quota
    modelTotals[s]!.count += row.count
    modelTotals[s]!.tokens += row.token_used
    modelTotals[s]!.quota += row.quota
  }
  const totals = modelTotals.reduce((a, b) => ({ count: a.count + b.count, tokens: a.tokens + b.tokens, quota: a.quota + b.quota }), { count: 0, tokens: 0, quota: 0 })
  return { x: [...buckets], models, count, tokens, quota, modelTotals, totals }
}

/** Running sums, series over series: what a stacked chart draws (the last series is the total). */
export function stackSeries(series: readonly (readonly number[])[]): number[][] {
  const out: number[][] = []
  for (const values of series) {
    const below = out[out.length - 1]
    out.push(values.map((value, i) => value + (below ? below[i]! : 0)))
  }
  return out
}
