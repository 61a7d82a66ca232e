import type { ImagePart, IrRequest, Part } from '../../ir'
import { base64ImageSize, type Base64Text } from '../../media/image-size'
import { imageTokens } from '../../metering/image-tokens'

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
 * less. Oldest first out once the texts held pass CACHE_CHARS or CACHE_TEXTS (many tiny texts cost their
 * entries more than their characters).
 */
const counts = new Map<string, number>()
const CACHE_CHARS = 1 << 20
const CACHE_TEXTS = 8192
const CACHE_TEXT_MAX = 64 * 1024
let cachedChars = 0
// the cached texts in arrival order, as a ring (a Map's iteration from the front skips every deleted entry first)
const order: (string | undefined)[] = new Array(CACHE_TEXTS)
let oldest = 0

function evictOldest(): void {
  const text = order[oldest]!
  order[oldest] = undefined
  oldest = (oldest + 1) % CACHE_TEXTS
  counts.delete(text)
  cachedChars -= text.length
}

function countTokens(text: string): number {
  if (!text) return 0
  const hit = counts.get(text)
  if (hit !== undefined) return hit
  const n = bpeCount(text)
  if (text.length <= CACHE_TEXT_MAX) {
    if (counts.size === CACHE_TEXTS) evictOldest()
    order[(oldest + counts.size) % CACHE_TEXTS] = text
    counts.set(text, n)
    cachedChars += text.length
    while (cachedChars > CACHE_CHARS) evictOldest()
  }
  return n
}

/** What the count cache holds now (for tests and the bounded-state audit). */
export function tokenCountCache(): { texts: number; chars: number } {
  return { texts: counts.size, chars: cachedChars }
}

/** Tokens a file (a PDF page, a document) is estimated at: about a 1092×1092 image at Anthropic's area / 750. */
const FILE_TOKENS = 1600
/** Framing tokens per message (role, separators), as chat formats add them. */
const PER_MESSAGE = 3

/**
 * Input tokens of a request by a real BPE tokenizer (o200k_base). Vendors' own tokenizers differ a little;
 * this is the estimate for count_tokens and quota reservation, never the final bill.
 */
export function countRequestTokens(ir: IrRequest, open: OpenBase64 = wholeText): number {
  return weighRequest(ir, countTokens, open)
}

/** How an image's base64 data is read: the string itself, or (spliced-body.ts) its kept start and the client's bytes after it. */
export type OpenBase64 = (data: string) => Base64Text
const wholeText: OpenBase64 = (data) => data

/** Tokens of one text (an answer's output): not cached, answers rarely repeat. */
export function countTextTokens(text: string): number {
  return text ? bpeCount(text) : 0
}

type Measure = (text: string) => number

/**
 * A request's texts weighed by `measure` (tokens, or bytes for the bound), framing and images added: an image at
 * what the model's vendor bills for its size (its header read from the data), else at the family's worst case.
 */
function weighRequest(ir: IrRequest, measure: Measure, open: OpenBase64): number {
  let total = 0
  const media: Media = { model: ir.model, open }
  for (const part of ir.system) total += measure(part.text)
  for (const message of ir.messages) {
    total += PER_MESSAGE
    if (message.role === 'opaque') total += measure(JSON.stringify(message.raw))
    else for (const part of message.content) total += weighPart(part, measure, media)
  }
  for (const tool of ir.tools) {
    total += tool.kind === 'function'
      ? measure(`${tool.name}\n${tool.description ?? ''}\n${JSON.stringify(tool.parameters)}`)
      : measure(JSON.stringify(tool.raw))
  }
  return total
}

/** Whether any message holds an image or a file: what a flat estimate counts, which the body's bytes need not bound. */
export function hasMedia(ir: IrRequest): boolean {
  return ir.messages.some((message) => message.role !== 'opaque' && message.content.some(isMedia))
}

function isMedia(part: Part): boolean {
  return part.type === 'image' || part.type === 'file' || (part.type === 'tool-result' && part.content.some(isMedia))
}

interface Media {
  model: string
  open: OpenBase64
}

function weighPart(part: Part, measure: Measure, media: Media): number {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return measure(part.text)
    case 'image':
      return weighImage(part, media)
    case 'file':
      return part.mediaType?.startsWith('image/') ? weighImage({ type: 'image', source: part.source }, media) : FILE_TOKENS
    case 'tool-call':
      return measure(part.name) + measure(part.arguments)
    case 'tool-result':
      return part.content.reduce((sum, inner) => sum + weighPart(inner, measure, media), 0)
  }
}

function weighImage(part: ImagePart, media: Media): number {
  const size = part.source.kind === 'base64' ? base64ImageSize(media.open(part.source.data)) : undefined
  return imageTokens(media.model, size, part.detail)
}

/**
 * Chat prompts with images or files up to this many UTF-8 bytes, and operations' texts (text-meter.ts), are
 * tokenized exactly for the reservation (≤ ~1 ms); longer ones (100 KB takes ~4 ms, 1 MB ~50 ms) reserve a
 * bound instead. A chat prompt of text alone reserves its byte count at any size (chat-meter.ts).
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

/** One token per UTF-8 byte of text (`bytesOf`: how many bytes a text stands for): never fewer than the tokenizer would count. */
export function requestBytesBound(ir: IrRequest, bytesOf: Measure = utf8Bytes, open: OpenBase64 = wholeText): number {
  return weighRequest(ir, bytesOf, open)
}

const utf8Bytes: Measure = (text) => Buffer.byteLength(text)
