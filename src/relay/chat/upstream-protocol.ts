import { isProtocolId } from '../../protocols'
import type { ProtocolId, UpstreamProtocolId } from '../../protocols/types'
import type { Channel } from '../routing'
import { upstreamProtocolById, wireOf } from './upstream-protocols'

/**
 * Which protocol one attempt speaks upstream. A channel may pin one with `setting.upstream_protocol`
 * (e.g. an OpenAI channel that should use Responses for every client); the pin must be a protocol the
 * provider speaks, else it is ignored. Unpinned: among the protocols serving the model (a provider may choose by
 * model: Bedrock sends Claude through invoke), the client's own, or one carrying it (Anthropic inside Bedrock's
 * invoke or Vertex's rawPredict), passes through; else the preferred one (conversion).
 */
export function upstreamProtocolFor(
  channel: Pick<Channel, 'provider' | 'setting'>,
  client: ProtocolId,
  model = '',
): { protocol: UpstreamProtocolId; passthrough: boolean } {
  // a channel that routes each client protocol itself (AdvancedCustom): its route decides
  const routed = channel.provider.routedProtocol?.(channel.setting, client, model)
  if (routed) return { protocol: routed, passthrough: routed === client }
  const spoken = channel.provider.protocolsFor?.(model) ?? channel.provider.protocols
  const pinned = channel.setting.upstream_protocol
  if (isProtocolId(pinned) && spoken.includes(pinned)) return { protocol: pinned, passthrough: pinned === client }
  if (spoken.includes(client)) return { protocol: client, passthrough: true }
  for (const id of spoken) if (wireOf(upstreamProtocolById(id)) === client) return { protocol: id, passthrough: true }
  return { protocol: spoken[0]!, passthrough: false }
}
