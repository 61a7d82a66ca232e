import { anthropic } from '../protocols/anthropic'
import { openaiChat } from '../protocols/openai-chat'
import type { Protocol, ProtocolId } from '../protocols/types'

/** Codecs by protocol id: the relay never names a protocol, it looks one up. */
export const PROTOCOLS: Partial<Record<ProtocolId, Protocol>> = {
  anthropic,
  'openai-chat': openaiChat,
}

export function protocolFor(id: ProtocolId): Protocol {
  const protocol = PROTOCOLS[id]
  if (!protocol) throw new Error(`protocol ${id} is not available`)
  return protocol
}

export function hasProtocol(id: ProtocolId): boolean {
  return PROTOCOLS[id] !== undefined
}
