import type { ChannelOverrides } from '../overrides/channel-overrides'
import { withHeaderOverride } from '../overrides/header-override'
import type { AttemptPlan } from './attempt'

/** The plan's headers with the channel's header override, also on the URL and headers a connector makes per call. */
export function withPlanHeaders(plan: AttemptPlan, overrides: ChannelOverrides, places: { key: string; requestId: string }): AttemptPlan {
  const override = overrides.headers
  if (!override) return plan
  const connect = plan.connect
  return {
    ...plan,
    headers: withHeaderOverride(plan.headers, override, places),
    connect: connect && (async () => {
      const made = await connect()
      return { url: made.url, headers: withHeaderOverride(made.headers, override, places) }
    }),
  }
}
