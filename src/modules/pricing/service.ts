import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { findPrice, groupRatio, priceInUsd, type Price } from '../../metering/prices'

/** The group anonymous visitors see prices for (when PublicPricingEnabled is on). */
const PUBLIC_PRICING_GROUP = 'default'

/**
 * One model's price line: US$ (per million tokens or per call), with the ratios behind it for the admin's
 * view only (`withRatios`); `priced` false when none exists.
 */
function priceItem(model: string, price: Price | undefined, quotaPerUnit: number, selfUse: boolean, withRatios = true) {
  if (!price) return { model, priced: false, mode: selfUse ? 'free' : 'none' }
  if (!withRatios) return { model, priced: true, ...priceInUsd(price, quotaPerUnit) }
  const ratios =
    price.mode === 'ratio'
      ? { model_ratio: price.ratio, completion_ratio: price.completion, cache_ratio: price.cacheRead, create_cache_ratio: price.cacheWrite }
      : price.mode === 'call'
        ? { model_price: price.usd }
        : {}
  return { model, priced: true, ...priceInUsd(price, quotaPerUnit), ...ratios }
}

/**
 * Models served to the group by enabled channels, each with its price in the group: US$ per million
 * input / output / cache-read / cache-write tokens (and per prompt-length tier, `tiers`), or per call (never the
 * ratios behind them: the model square is public). `priced` says whether a price exists: a model nobody priced shows mode `none` (or
 * `free` in self-use mode), and is listed in `unpriced_models` too, so the console can point an admin at
 * what still needs a price. `group_prices`: the model's price in every group an enabled channel serves it
 * to (`groups` lists them, the caller's first). `user` undefined: an anonymous visitor, shown the default group.
 */
export function pricingFor(deps: AppDeps, user: UserRow | undefined) {
  const group = user?.group ?? PUBLIC_PRICING_GROUP
  const quotaPerUnit = deps.options.get<number>('QuotaPerUnit')
  const selfUse = deps.options.get<boolean>('SelfUseModeEnabled')
  const servedTo = new Map<string, Set<string>>()
  for (const channel of deps.routing.channels.all()) {
    if (channel.status !== 1) continue
    for (const model of channel.models) {
      let groups = servedTo.get(model)
      if (!groups) servedTo.set(model, (groups = new Set()))
      for (const name of channel.groups) groups.add(name)
    }
  }
  const allGroups = new Set<string>()
  const unpriced: string[] = []
  const items = [...servedTo.keys()]
    .filter((model) => servedTo.get(model)!.has(group))
    .sort()
    .map((model) => {
      const price = findPrice(deps.options, model, group)
      if (!price) unpriced.push(model)
      const groupPrices: Record<string, ReturnType<typeof priceInUsd>> = {}
      for (const name of [...servedTo.get(model)!].sort()) {
        allGroups.add(name)
        const inGroup = findPrice(deps.options, model, name)
        if (inGroup) groupPrices[name] = priceInUsd(inGroup, quotaPerUnit)
      }
      return { ...priceItem(model, price, quotaPerUnit, selfUse, false), group_prices: groupPrices }
    })
  return {
    group,
    group_ratio: groupRatio(deps.options, group),
    groups: [group, ...[...allGroups].filter((name) => name !== group).sort()],
    quota_per_unit: quotaPerUnit,
    self_use_mode: selfUse,
    items,
    unpriced_models: unpriced,
  }
}

/**
 * The admin's view: every model any channel names (whatever its status or groups) and every model the
 * ModelRatio / ModelPrice / ModelTierPricing options price, at the base price (group ratio 1), each with the channels that
 * serve it; the group ratios of every known group (GroupRatio's and the channels'); models served by a
 * channel without a price in `unpriced_models`.
 */
export function pricingOverview(deps: AppDeps) {
  const quotaPerUnit = deps.options.get<number>('QuotaPerUnit')
  const selfUse = deps.options.get<boolean>('SelfUseModeEnabled')
  const served = new Map<string, { id: number; name: string; type: number; status: number }[]>()
  const groups = new Set(Object.keys(deps.options.get<Record<string, number>>('GroupRatio')))
  for (const channel of [...deps.routing.channels.all()].sort((a, b) => a.id - b.id)) {
    for (const group of channel.groups) groups.add(group)
    for (const model of channel.models) {
      let list = served.get(model)
      if (!list) served.set(model, (list = []))
      list.push({ id: channel.id, name: channel.name, type: channel.type, status: channel.status })
    }
  }
  const models = new Set(served.keys())
  for (const key of ['ModelRatio', 'ModelPrice', 'ModelTierPricing']) for (const model of Object.keys(deps.options.get<Record<string, number>>(key))) models.add(model)
  const unpriced: string[] = []
  const items = [...models].sort().map((model) => {
    const found = findPrice(deps.options, model, PUBLIC_PRICING_GROUP)
    const price = found && { ...found, group: 1 }
    if (!price && served.has(model)) unpriced.push(model)
    return { ...priceItem(model, price, quotaPerUnit, selfUse), channels: served.get(model) ?? [] }
  })
  return {
    quota_per_unit: quotaPerUnit,
    self_use_mode: selfUse,
    group_ratios: Object.fromEntries([...groups].sort().map((group) => [group, groupRatio(deps.options, group)])),
    items,
    unpriced_models: unpriced,
  }
}

export type PricingOverview = ReturnType<typeof pricingOverview>
export type PricingList = ReturnType<typeof pricingFor>
