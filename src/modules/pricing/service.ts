import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { findPrice, groupRatio, priceInUsd } from '../../metering/prices'

/** The group anonymous visitors see prices for (when PublicPricingEnabled is on). */
export const PUBLIC_PRICING_GROUP = 'default'

/**
 * Models served to the group by enabled channels, each with its price in the group: US$ per million
 * input / output / cache-read / cache-write tokens, or per call. `priced` says whether a price exists: a
 * model nobody priced shows mode `none` (or `free` in self-use mode), and is listed in `unpriced_models`
 * too, so the console can point an admin at what still needs a price. `user` undefined: an anonymous
 * visitor, shown the default group.
 */
export function pricingFor(deps: AppDeps, user: UserRow | undefined) {
  const group = user?.group ?? PUBLIC_PRICING_GROUP
  const quotaPerUnit = deps.options.get<number>('QuotaPerUnit')
  const selfUse = deps.options.get<boolean>('SelfUseModeEnabled')
  const models = new Set<string>()
  for (const channel of deps.routing.channels.all()) {
    if (channel.status === 1 && channel.groups.includes(group)) for (const model of channel.models) models.add(model)
  }
  const unpriced: string[] = []
  const items = [...models].sort().map((model) => {
    const price = findPrice(deps.options, model, group)
    if (!price) {
      unpriced.push(model)
      return { model, priced: false, mode: selfUse ? 'free' : 'none' }
    }
    const ratios =
      price.mode === 'ratio'
        ? { model_ratio: price.ratio, completion_ratio: price.completion, cache_ratio: price.cacheRead, create_cache_ratio: price.cacheWrite }
        : price.mode === 'call'
          ? { model_price: price.usd }
          : {}
    return { model, priced: true, ...priceInUsd(price, quotaPerUnit), ...ratios }
  })
  return {
    group,
    group_ratio: groupRatio(deps.options, group),
    quota_per_unit: quotaPerUnit,
    self_use_mode: selfUse,
    items,
    unpriced_models: unpriced,
  }
}
