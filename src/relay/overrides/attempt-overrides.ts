import type { AttemptPlan } from '../attempt'
import type { ChannelOverrides } from './channel-overrides'
import { withHeaderOverride } from './header-override'
import type { Channel } from '../routing/channel'

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

/** A test or model-list call as the channel's relay calls go: through its proxy, with its header override. */
export function viaChannel(channel: Pick<Channel, 'overrides'>, key: string, init: RequestInit = {}): RequestInit & { proxy?: string } {
  const { headers, proxy } = channel.overrides
  const withHeaders = headers ? { ...init, headers: withHeaderOverride(plainHeaders(init.headers), headers, { key, requestId: '' }) } : init
  return proxy ? { ...withHeaders, proxy } : withHeaders
}

function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  return headers ? Object.fromEntries(new Headers(headers).entries()) : {}
}
