import type { TokenRow } from '../db/repos'
import type { OptionStore } from '../options/store'
import { tokenAllowsModel } from './auth/model-allowed'
import type { RouteCandidate } from './routing'
import type { RelayPorts } from './types'

export interface ServingPlan {
  /** the model the channels serve: the one asked for, or the first fallback that has a channel */
  served: string
  planned: RouteCandidate[]
  /** the planned channels that can run the job */
  serving: RouteCandidate[]
}

/** The fallbacks of `model` in `group`: the group's own list (GroupModelFallbacks), else ModelFallbacks'. */
function fallbacksOf(options: Pick<OptionStore, 'get'>, group: string, model: string): readonly string[] {
  const byGroup = options.get<Record<string, Record<string, string[]>>>('GroupModelFallbacks')[group]?.[model]
  return byGroup ?? options.get<Record<string, string[]>>('ModelFallbacks')[model] ?? []
}

/**
 * The channels for `model`; when none is left (none enabled serves it in the group), those of its first fallback
 * (ModelFallbacks, in order) that the token may use and a channel serves. Without one, the model's own (empty) plan,
 * so the refusal names the model asked for.
 */
export async function planServing(
  ports: Pick<RelayPorts, 'routing' | 'options'>,
  token: TokenRow,
  group: string,
  model: string,
  serving: (planned: RouteCandidate[]) => RouteCandidate[],
): Promise<ServingPlan> {
  const planned = await ports.routing.planRoute(group, model)
  const own = { served: model, planned, serving: planned.length > 0 ? serving(planned) : planned }
  if (own.serving.length > 0) return own
  for (const fallback of fallbacksOf(ports.options, group, model)) {
    if (!tokenAllowsModel(token, fallback)) continue
    const next = await ports.routing.planRoute(group, fallback)
    const usable = next.length > 0 ? serving(next) : next
    if (usable.length > 0) return { served: fallback, planned: next, serving: usable }
  }
  return own
}
