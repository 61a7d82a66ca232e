import { anthropic } from './anthropic/index.ts'
import { gemini } from './gemini/index.ts'
import { openaiChat } from './openai-chat/index.ts'
import { openaiResponses } from './openai-responses/index.ts'
import type { Protocol, ProtocolId } from './types.ts'

/** Every protocol by id: the relay looks codecs up here instead of special-casing pairs. */
export const protocols: Readonly<Record<ProtocolId, Protocol>> = Object.freeze({
  anthropic,
  'openai-chat': openaiChat,
  'openai-responses': openaiResponses,
  gemini,
})

export function isProtocolId(v: unknown): v is ProtocolId {
  return typeof v === 'string' && Object.hasOwn(protocols, v)
}

export type { Protocol, ProtocolId } from './types.ts'
export { PROTOCOL_IDS } from './types.ts'
