import { isProtocolId } from '../protocols'
import type { ProtocolId } from '../protocols/types'
import type { Channel } from './routing'

/**
 * Which protocol one attempt speaks upstream. A channel may pin one with `setting.upstream_protocol`
 * (e.g. an OpenAI channel that should use Responses for every client); the pin must be a protocol the
 * provider speaks, else it is ignored. Unpinned: the client's own protocol when the provider speaks it
 * (passthrough), else the provider's preferred one (conversion).
 */
export function upstreamProtocolFor(channel: Pick<Channel, 'provider' | 'setting'>, client: ProtocolId): { protocol: ProtocolId; passthrough: boolean } {
  const pinned = channel.setting.upstream_protocol
  if (isProtocolId(pinned) && channel.provider.protocols.includes(pinned)) return { protocol: pinned, passthrough: pinned === client }
  if (channel.provider.protocols.includes(client)) return { protocol: client, passthrough: true }
  return { protocol: channel.provider.protocols[0]!, passthrough: false }
}
