import type { Message, IrRequest, TextPart } from './request.ts'

/**
 * Moves system messages that precede the first non-system message into the top-level system parts.
 * Protocols with one top-level system prompt (Anthropic, Gemini) call this before encoding; later system
 * messages stay in place for the encoder to handle.
 */
export function splitLeadingSystem(req: Pick<IrRequest, 'system' | 'messages'>): { system: TextPart[]; messages: Message[] } {
  const system = [...req.system]
  let i = 0
  for (; i < req.messages.length; i++) {
    const m = req.messages[i]!
    if (m.role !== 'system') break
    system.push(...m.content)
  }
  return { system, messages: req.messages.slice(i) }
}

/** Name of the tool a call id refers to, from the assistant tool calls earlier in the conversation. */
export function toolNameIndex(messages: Message[]): Map<string, string> {
  const names = new Map<string, string>()
  for (const m of messages) {
    if (m.role !== 'assistant') continue
    for (const p of m.content) if (p.type === 'tool-call') names.set(p.id, p.name)
  }
  return names
}

/** Parses a tool-call argument string into an object; anything that is not a JSON object becomes `{}` or `{_raw}`. */
export function parseArguments(args: string): Record<string, unknown> {
  if (args.trim() === '') return {}
  try {
    const v: unknown = JSON.parse(args)
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>
    return { value: v }
  } catch {
    return { _raw: args }
  }
}

/** JSON text for tool arguments given as an object (or already a string). */
export function stringifyArguments(input: unknown): string {
  if (typeof input === 'string') return input
  if (input === undefined || input === null) return '{}'
  return JSON.stringify(input)
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/** Random id with a prefix, e.g. `newId('msg_')`. */
export function newId(prefix: string, length = 24): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length))
  let s = prefix
  for (const b of bytes) s += ALPHABET[b % ALPHABET.length]
  return s
}

/** Plain object check for untyped wire input. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
