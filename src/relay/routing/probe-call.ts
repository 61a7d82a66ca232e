import type { OutboundFetch } from '../../outbound/fetch'
import { isProtocolId, PROTOCOL_IDS } from '../../protocols'
import { upstreamRequest } from '../../providers/upstream'
import { upstreamProtocolById } from '../chat/upstream-protocols'
import type { Channel } from './channel'

/**
 * The channel test's request through the channel's preferred protocol for the model: that protocol's smallest body
 * (`probeBody`; a carried one wrapped as the vendor wants it), with URL and credentials made as the relay makes them.
 */
export async function probeCall(
  channel: Channel,
  upstreamModel: string,
  clientModel: string,
  key: string,
  fetch: OutboundFetch,
): Promise<{ url: string; headers: Record<string, string>; body: string; rejected?: (status: number) => boolean; streamsOnly?: boolean }> {
  const provider = channel.provider
  // a channel that routes each client protocol itself (AdvancedCustom): probed through its first route
  const routedClient = provider.routedProtocol && PROTOCOL_IDS.find((id) => provider.routedProtocol!(channel.setting, id, upstreamModel))
  const protocol = routedClient ? provider.routedProtocol!(channel.setting, routedClient, upstreamModel)! : (provider.protocolsFor?.(upstreamModel) ?? provider.protocols)[0]!
  const upstream = upstreamProtocolById(protocol)
  const body = upstream.probeBody(upstreamModel, provider.quirks)
  let text = JSON.stringify(body)
  let extra: Record<string, string> = {}
  if (upstream.wrapBody) ({ text, headers: extra } = upstream.wrapBody(body, undefined, []))
  if (provider.connector) {
    const call = { protocol, model: upstreamModel, clientModel, stream: false, key, baseUrl: channel.baseUrl, other: channel.other, setting: channel.setting, client: routedClient || (isProtocolId(protocol) ? protocol : undefined), body: text, fetch }
    const connector = provider.connector
    const connectorCall = { ...call, headers: { 'content-type': 'application/json', ...extra } }
    const target = await connector.prepare(connectorCall)
    return { ...target, body: text, rejected: (status) => connector.rejected?.(connectorCall, status) ?? false, streamsOnly: upstream.streamsOnly }
  }
  const target = upstreamRequest(provider, channel.baseUrl, protocol, upstreamModel, false, key, { other: channel.other })
  return { url: target.url, headers: { ...target.headers, ...extra }, body: text, streamsOnly: upstream.streamsOnly }
}
