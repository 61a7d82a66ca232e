import { withHeaderOverride } from './header-override'
import type { Channel } from '../routing/channel'

/** A test or model-list call as the channel's relay calls go: through its proxy, with its header override. */
export function viaChannel(channel: Pick<Channel, 'overrides'>, key: string, init: RequestInit = {}): RequestInit & { proxy?: string } {
  const { headers, proxy } = channel.overrides
  const withHeaders = headers ? { ...init, headers: withHeaderOverride(plainHeaders(init.headers), headers, { key, requestId: '' }) } : init
  return proxy ? { ...withHeaders, proxy } : withHeaders
}

function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  return headers ? Object.fromEntries(new Headers(headers).entries()) : {}
}
