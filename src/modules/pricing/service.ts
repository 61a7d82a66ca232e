import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { findPrice, groupRatio, priceInUsd } from '../../metering/prices'

/**
 * Models served to the user's group by enabled channels, each with its price in the group: US$ per million
 * input / output / cache-read / cache-write tokens, or per call. A model nobody priced shows `none` (or
 * `free` in self-use mode).
 */
export function pricingFor(deps: AppDeps, user: UserRow) {
  const group = user.group
  const quotaPerUnit = deps.options.get<number>('QuotaPerUnit')
  const selfUse = deps.options.get<boolean>('SelfUseModeEnabled')
  const models = new Set<string>()
  for (const channel of deps.routing.channels.all()) {
    if (channel.status === 1 && channel.groups.includes(group)) for (const model of channel.models) models.add(model)
  }
  const items = [...models].sort().map((model) => {
    const price = findPrice(deps.options, model, group)
    if (!price) return { model, mode: selfUse ? 'free' : 'none' }
    const ratios =
      price.mode === 'ratio'
        ? { model_ratio: price.ratio, completion_ratio: price.completion, cache_ratio: price.cacheRead, create_cache_ratio: price.cacheWrite }
        : price.mode === 'call'
          ? { model_price: price.usd }
          : {}
    return { model, ...priceInUsd(price, quotaPerUnit), ...ratios }
  })
  return { group, group_ratio: groupRatio(deps.options, group), quota_per_unit: quotaPerUnit, self_use_mode: selfUse, items }
}
