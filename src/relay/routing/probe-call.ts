import { emptyRequest, textPart } from '../../ir'
import { isProtocolId } from '../../protocols'
import { probeBody } from '../../providers/probe-body'
import { upstreamRequest } from '../../providers/upstream'
import { upstreamProtocolById, wireOf } from '../upstream-protocols'
import type { Channel } from './channel'

/**
 * The channel test's request through the channel's preferred protocol for the model: the smallest body of that
 * protocol (or of the one it carries, wrapped as the vendor wants it, or encoded from a one-line request for
 * upstream-only protocols like Bedrock's Converse), with URL and credentials made as the relay makes them.
 */
export async function probeCall(channel: Channel, upstreamModel: string, clientModel: string, key: string): Promise<{ url: string; headers: Record<string, string>; body: string }> {
  const provider = channel.provider
  const protocol = (provider.protocolsFor?.(upstreamModel) ?? provider.protocols)[0]!
  const upstream = upstreamProtocolById(protocol)
  const wire = isProtocolId(protocol) ? protocol : wireOf(upstream)
  let body: Record<string, unknown>
  if (wire) body = probeBody(wire, upstreamModel, provider.quirks.maxTokensField)
  else {
    const ir = { ...emptyRequest(upstreamModel), messages: [{ role: 'user' as const, content: [textPart('hi')] }], maxOutputTokens: 1 }
    body = upstream.encodeRequest(ir).value
  }
  let text = JSON.stringify(body)
  let extra: Record<string, string> = {}
  if (upstream.wrapBody) ({ text, headers: extra } = upstream.wrapBody(body, undefined, []))
  if (provider.connector) {
    const call = { protocol, model: upstreamModel, clientModel, stream: false, key, baseUrl: channel.baseUrl, other: channel.other, body: text }
    const target = await provider.connector.prepare({ ...call, headers: { 'content-type': 'application/json', ...extra } })
    return { ...target, body: text }
  }
  const target = upstreamRequest(provider, channel.baseUrl, protocol, upstreamModel, false, key, { other: channel.other })
  return { url: target.url, headers: { ...target.headers, ...extra }, body: text }
}
