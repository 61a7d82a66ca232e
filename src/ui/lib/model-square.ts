/** The model square's pure part: each model's vendor and kind, the filters, the price in the chosen group. */
import type { TierShown } from './tier-prices'
import { modelKind, type ModelKind } from './model-choice'
import { vendorOf, type Vendor } from './vendors'

export interface SquarePrice {
  mode: string
  input?: number
  output?: number
  cache_read?: number
  cache_write?: number
  per_call?: number
  /** prices by prompt length, each tier in US$ per 1M tokens */
  tiers?: TierShown[]
}

export interface SquareItem extends SquarePrice {
  model: string
  priced: boolean
  group_prices?: Record<string, SquarePrice>
}

export interface SquareModel {
  item: SquareItem
  vendor: Vendor
  kind: ModelKind
}

export interface SquareFilter {
  search: string
  /** '' = every vendor */
  vendor: string
  /** '' = every kind */
  kind: string
}

export const describe = (items: readonly SquareItem[]): SquareModel[] => items.map((item) => ({ item, vendor: vendorOf(item.model), kind: modelKind(item.model) }))

export function applyFilter(models: readonly SquareModel[], filter: SquareFilter): SquareModel[] {
  const words = filter.search.trim().toLowerCase().split(/\s+/).filter(Boolean)
  return models.filter(
    ({ item, vendor, kind }) =>
      (!filter.vendor || vendor.id === filter.vendor) &&
      (!filter.kind || kind === filter.kind) &&
      words.every((word) => item.model.toLowerCase().includes(word) || vendor.name.toLowerCase().includes(word)),
  )
}

/** Each value present with how many models have it, most first (the filter chips). */
export function countBy<T extends string>(models: readonly SquareModel[], key: (model: SquareModel) => T): { value: T; count: number }[] {
  const counts = new Map<T, number>()
  for (const model of models) counts.set(key(model), (counts.get(key(model)) ?? 0) + 1)
  return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || a.value.localeCompare(b.value))
}

/** The model's price in `group` (the caller's own when it is the list's group), undefined when it has none there. */
export function priceIn(item: SquareItem, group: string, ownGroup: string): SquarePrice | undefined {
  if (group === ownGroup) return item.priced ? item : undefined
  return item.group_prices?.[group]
}
