import { protocols } from '../protocols'
import type { Protocol, ProtocolId } from '../protocols/types'

/** Codecs by protocol id (all four): the relay never names a protocol, it looks one up. */
const PROTOCOLS: Partial<Record<ProtocolId, Protocol>> = protocols

export function protocolFor(id: ProtocolId): Protocol {
  const protocol = PROTOCOLS[id]
  if (!protocol) throw new Error(`protocol ${id} is not available`)
  return protocol
}
