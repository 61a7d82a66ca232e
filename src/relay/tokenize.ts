import type { IrRequest, Part } from '../ir'

type Counter = (text: string) => number
let counter: Counter | undefined

/**
 * o200k_base, loaded on first use: its tables cost ~50–90 MB of RSS and ~0.7 s to load, and a gateway
 * whose requests all fit the fast estimate below never needs them.
 */
function bpeCount(text: string): number {
  counter ??= (require('gpt-tokenizer/encoding/o200k_base') as typeof import('gpt-tokenizer/encoding/o200k_base')).countTokens
  return counter(text)
}

/**
 * Counts of request texts seen lately. Clients resend the same system prompt, tools and history on every
 * turn, and BPE over a cold 200k-entry table costs ~25 µs even for a short line (1 µs warm), a lookup far
 * less. Oldest first out once the texts held pass CACHE_CHARS.
 */
const counts = new Map<string, number>()
const CACHE_CHARS = 1 << 20
const CACHE_TEXT_MAX = 64 * 1024
let cachedChars = 0

function countTokens(text: string): number {
  if (!text) return 0
  const hit = counts.get(text)
  if (hit !== undefined) return hit
  const n = bpeCount(text)
  if (text.length <= CACHE_TEXT_MAX) {
    counts.set(text, n)
    cachedChars += text.length
    for (const old of counts.keys()) {
      if (cachedChars <= CACHE_CHARS) break
      counts.delete(old)
      cachedChars -= old.length
    }
  }
  return n
}

/** Tokens an image costs when its size is unknown (about a 1092×1092 image at Anthropic's area / 750). */
const IMAGE_TOKENS = 1600
/** Framing tokens per message (role, separators), as chat formats add them. */
const PER_MESSAGE = 3

/**
 * Input tokens of a request by a real BPE tokenizer (o200k_base). Vendors' own tokenizers differ a little;
 * this is the estimate for count_tokens and quota reservation, never the final bill.
 */
export function countRequestTokens(ir: IrRequest): number {
  let total = 0
  for (const part of ir.system) total += countTokens(part.text)
  for (const message of ir.messages) {
    total += PER_MESSAGE
    if (message.role === 'opaque') total += countTokens(JSON.stringify(message.raw))
    else for (const part of message.content) total += partTokens(part)
  }
  for (const tool of ir.tools) {
    total += tool.kind === 'function'
      ? countTokens(`${tool.name}\n${tool.description ?? ''}\n${JSON.stringify(tool.parameters)}`)
      : countTokens(JSON.stringify(tool.raw))
  }
  return total
}

/** Tokens of one text (an answer's output): not cached, answers rarely repeat. */
export function countTextTokens(text: string): number {
  return text ? bpeCount(text) : 0
}

function partTokens(part: Part): number {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return countTokens(part.text)
    case 'image':
    case 'file':
      return IMAGE_TOKENS
    case 'tool-call':
      return countTokens(part.name) + countTokens(part.arguments)
    case 'tool-result':
      return part.content.reduce((sum, inner) => sum + partTokens(inner), 0)
  }
}

/**
 * Prompts up to this many UTF-8 bytes are tokenized exactly for the reservation (≤ ~1 ms); longer ones
 * (100 KB takes ~4 ms, 1 MB ~50 ms) reserve their byte count instead.
 */
export const EXACT_ESTIMATE_BYTES = 32 * 1024

/**
 * The reservation's input estimate. Short prompts: the tokenizer's count (`exact`). Long prompts: an upper
 * bound without tokenizing, one token per UTF-8 byte of text (a byte-level BPE token is never shorter than
 * a byte), so the reservation still covers the worst case; settlement uses the upstream's usage, and only
 * tokenizes (countRequestTokens) if the upstream reported none.
 *
 * `bodyBytes`, the UTF-8 size of the request body the IR was decoded from, when known: a body within
 * EXACT_ESTIMATE_BYTES cannot carry more text than that, so the per-text byte count (which stringifies every
 * tool schema, ~35 µs of a Claude Code request's ~80) is skipped.
 */
export function estimateRequestTokens(ir: IrRequest, bodyBytes = Infinity): { tokens: number; exact: boolean } {
  if (bodyBytes <= EXACT_ESTIMATE_BYTES) return { tokens: countRequestTokens(ir), exact: true }
  const bound = requestBytesBound(ir)
  if (bound <= EXACT_ESTIMATE_BYTES) return { tokens: countRequestTokens(ir), exact: true }
  return { tokens: bound, exact: false }
}

function requestBytesBound(ir: IrRequest): number {
  const bytes = (text: string) => Buffer.byteLength(text)
  let total = 0
  for (const part of ir.system) total += bytes(part.text)
  for (const message of ir.messages) {
    total += PER_MESSAGE
    if (message.role === 'opaque') total += bytes(JSON.stringify(message.raw))
    else for (const part of message.content) total += partBytes(part, bytes)
  }
  for (const tool of ir.tools) {
    total += tool.kind === 'function'
      ? bytes(`${tool.name}\n${tool.description ?? ''}\n${JSON.stringify(tool.parameters)}`)
      : bytes(JSON.stringify(tool.raw))
  }
  return total
}

function partBytes(part: Part, bytes: (text: string) => number): number {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return bytes(part.text)
    case 'image':
    case 'file':
      return IMAGE_TOKENS
    case 'tool-call':
      return bytes(part.name) + bytes(part.arguments)
    case 'tool-result':
      return part.content.reduce((sum, inner) => sum + partBytes(inner, bytes), 0)
  }
}
