import type { OutboundWebSocket } from '../../outbound/websocket'
import type { Provider } from '../../providers/types'
import { maskSecrets } from '../mask'
import { upstreamProtocolById } from '../chat/upstream-protocols'
import type { Channel } from './channel'

/**
 * The channel test of a provider reached over its WebSocket (Spark): the protocol's smallest request through the
 * provider's `socketCall`, dialled through the outbound guard; its answer read whole (the frames as events).
 */
export async function probeOverSocket(
  channel: Channel,
  socketCall: NonNullable<Provider['socketCall']>,
  key: string,
  upstreamModel: string,
  dial: OutboundWebSocket,
  timeoutMs: number,
): Promise<{ ok: boolean; status: number; message: string }> {
  const provider = channel.provider
  const upstream = upstreamProtocolById(provider.protocols[0]!)
  const body = JSON.stringify(upstream.probeBody(upstreamModel, provider.quirks))
  const call = { baseUrl: channel.baseUrl || provider.defaultBaseUrl, model: upstreamModel, other: channel.other, key, body, deadlineMs: timeoutMs, dial }
  const response = await socketCall({ ...call, signal: AbortSignal.timeout(timeoutMs) })
  const text = await response.text()
  if (response.ok) return { ok: true, status: response.status, message: '' }
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  return { ok: false, status: response.status, message: maskSecrets(upstream.parseError(response.status, parsed).message, key) }
}
