import { MARK_CLOSE, MARK_OPEN, SplicedTextError } from '../../ir'
import type { BodyPieces } from './pieces'
import type { Base64Text } from '../../media/image-size'
import { validStringContents } from './json-string-check'
import { spliceLimits } from './splice-paths'

/**
 * A large body converted to another protocol without decoding its long strings (issue #18): JSON.parse, the
 * UTF-16 copies and JSON.stringify of a 1 MB agent turn cost ~10 ms, nearly all of it tool results and base64
 * that the conversion only moves from one field to another. Each long string the scan found under the client
 * protocol's splice paths keeps its first bytes; the rest (its *tail*) is replaced by a mark (`\uE000<n>\\\uE001`)
 * in a small copy of the body (the *skeleton*), which is parsed and converted as usual. The encoded upstream body
 * is then stringified and each mark replaced by the tail's bytes as the client sent them: JSON-escaped already,
 * and valid inside any JSON string, since the tail was checked here (no raw control character, only JSON's escapes)
 * and starts and ends on a character boundary.
 *
 * A mark that comes out anywhere but inside one JSON string (stringified twice, cut, re-encoded) makes `splice`
 * throw SplicedTextError, as does a converter that needs a whole text (`wholeText`): the relay then converts the
 * body parsed whole.
 */
export interface SplicedBody {
  /** the skeleton, parsed */
  parsed: Record<string, unknown>
  /** bytes of the client's body that a (cut) text decoded from the skeleton stands for */
  bytesOf(text: string): number
  /** a cut base64 text as its kept start and the client's bytes after it, read only where sliced (an image's header) */
  base64Text(text: string): Base64Text
  /** the upstream body: `json` (a JSON text holding marks) with the tails in place of the marks, as its pieces */
  splice(json: string): BodyPieces
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const OPEN = Buffer.from(MARK_OPEN) // EE 80 80
const CLOSE = Buffer.from(MARK_CLOSE) // EE 80 81
const BACKSLASH = 0x5c
/** [8 9 a b A B]: the third hex digit of a high surrogate's escape (\uD800–\uDBFF) */
const HIGH = [0x38, 0x39, 0x61, 0x62, 0x41, 0x42]

/**
 * The body's skeleton, parsed; undefined when there is nothing to cut, when the body holds the mark character
 * itself (as UTF-8 or as an escape), or when a tail is not valid JSON string content (parsing the body whole
 * then reports the problem as JSON.parse always has).
 */
export function splicedBody(bytes: Uint8Array<ArrayBuffer>, spans: readonly number[]): SplicedBody | undefined {
  if (spans.length === 0) return undefined
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const tails: number[] = []
  let size = body.length
  for (let s = 0; s < spans.length; s += 2) {
    const end = spans[s + 1]!
    const cut = cutAt(body, spans[s]!, end)
    if (cut >= end) continue
    size += markLength(tails.length / 2) - (end - cut)
    tails.push(cut, end)
  }
  if (tails.length === 0 || !validStringContents(body, tails)) return undefined
  const skeleton = scratch(size)
  let from = 0
  let at = 0
  for (let t = 0; t < tails.length; t += 2) {
    at += body.copy(skeleton, at, from, tails[t])
    at = writeMark(skeleton, at, t / 2)
    from = tails[t + 1]!
  }
  body.copy(skeleton, at, from)
  // only what is decoded can be mistaken for a mark (the tails are copied as they are): no mark character but ours
  if (holdsMark(skeleton, tails.length / 2)) return undefined
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(decoder.decode(skeleton)) as Record<string, unknown>
  } catch {
    return undefined // the body parsed whole names its problem
  }
  return { parsed, bytesOf: (text) => bytesOf(text, tails), base64Text: (text) => base64Text(text, body, tails), splice: (json) => splice(json, body, tails) }
}

/** Whether the skeleton holds the mark's first character other than in its `marks` marks: as UTF-8, or as an escape (not `\\uE000`, an escaped backslash). */
function holdsMark(b: Buffer, marks: number): boolean {
  let seen = 0
  for (let at = b.indexOf(OPEN); at >= 0; at = b.indexOf(OPEN, at + 1)) seen++
  if (seen !== marks) return true
  for (const escape of ESCAPED_OPEN) {
    for (let at = b.indexOf(escape); at >= 0; at = b.indexOf(escape, at + 1)) {
      let k = at - 1
      while (b[k] === BACKSLASH) k--
      if ((at - k) % 2 === 1) return true // an even run before it: the escape's own backslash is not escaped
    }
  }
  return false
}
const ESCAPED_OPEN = [Buffer.from('\\ue000'), Buffer.from('\\uE000')]

/** Where a string's kept start ends: after `prefixBytes` (a data URL: after its header's comma), on a boundary. */
function cutAt(b: Buffer, start: number, end: number): number {
  let limit = start + spliceLimits.prefixBytes
  if (b[start] === 0x64 && b[start + 1] === 0x61 && b[start + 2] === 0x74 && b[start + 3] === 0x61 && b[start + 4] === 0x3a) {
    const comma = b.subarray(start, Math.min(end, start + 1024)).indexOf(0x2c)
    if (comma > 0) limit = Math.max(limit, start + comma + 1)
  }
  let i = start
  while (i < end && i < limit) {
    if (b[i] !== BACKSLASH) i++
    else if (b[i + 1] !== 0x75) i += 2
    else {
      const high = (b[i + 2] === 0x64 || b[i + 2] === 0x44) && HIGH.includes(b[i + 3]!)
      i += 6
      if (high && b[i] === BACKSLASH && b[i + 1] === 0x75) i += 6 // a surrogate pair's two escapes stay together
    }
  }
  while (i < end && (b[i]! & 0xc0) === 0x80) i++ // not inside a UTF-8 sequence
  return Math.min(i, end)
}

/** A mark in JSON text: the opening character, the number, the backslash (escaped: two), the closing character. */
function markLength(n: number): number {
  return OPEN.length + String(n).length + 2 + CLOSE.length
}

function writeMark(out: Buffer, at: number, n: number): number {
  at += OPEN.copy(out, at)
  at += out.write(String(n), at, 'latin1')
  out[at++] = BACKSLASH
  out[at++] = BACKSLASH
  return at + CLOSE.copy(out, at)
}

/** A (cut) text's size in the client's body: its own UTF-8 bytes and each tail it stands for. */
function bytesOf(text: string, tails: readonly number[]): number {
  let size = 0
  let from = 0
  for (let at = text.indexOf(MARK_OPEN); at >= 0; at = text.indexOf(MARK_OPEN, from)) {
    size += Buffer.byteLength(text.slice(from, at))
    let n = 0
    let i = at + 1
    while (text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) n = n * 10 + text.charCodeAt(i++) - 0x30
    if (2 * n < tails.length) size += tails[2 * n + 1]! - tails[2 * n]!
    const close = text.indexOf(MARK_CLOSE, i)
    from = close < 0 ? text.length : close + 1
  }
  return size + Buffer.byteLength(text.slice(from))
}

/** The text up to its first mark, then that mark's tail as sent (base64 is ASCII: one byte, one character). */
function base64Text(text: string, body: Buffer, tails: readonly number[]): Base64Text {
  const at = text.indexOf(MARK_OPEN)
  if (at < 0) return text
  let n = 0
  let i = at + 1
  while (text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) n = n * 10 + text.charCodeAt(i++) - 0x30
  if (2 * n >= tails.length) return text.slice(0, at)
  const head = text.slice(0, at)
  const start = tails[2 * n]!
  const length = head.length + tails[2 * n + 1]! - start
  const slice = (from: number, to: number): string => {
    to = Math.min(to, length)
    if (from >= to) return ''
    const kept = from < head.length ? head.slice(from, Math.min(to, head.length)) : ''
    const rest = to > head.length ? body.toString('latin1', start + Math.max(0, from - head.length), start + (to - head.length)) : ''
    return kept + rest
  }
  return { length, slice }
}

function splice(json: string, body: Buffer<ArrayBuffer>, tails: readonly number[]): BodyPieces {
  const room = scratch(json.length * 3) // UTF-16 units: at most 3 bytes each
  const text = room.subarray(0, encoder.encodeInto(json, room).written)
  const pieces: Uint8Array<ArrayBuffer>[] = []
  const placed: number[] = new Array(tails.length / 2).fill(-1)
  let from = 0
  let size = 0
  for (let at = text.indexOf(OPEN); at >= 0; at = text.indexOf(OPEN, at + 1)) {
    let i = at + OPEN.length
    let n = 0
    const digits = i
    while (text[i]! >= 0x30 && text[i]! <= 0x39) n = n * 10 + text[i++]! - 0x30
    // JSON.stringify wrote the mark's one backslash as two: any other count means it was not one string deep
    const close = i + 2
    if (i === digits || 2 * n >= tails.length || text[i] !== BACKSLASH || text[i + 1] !== BACKSLASH || text[close] !== CLOSE[0] || text[close + 1] !== CLOSE[1] || text[close + 2] !== CLOSE[2])
      throw new SplicedTextError('the upstream body')
    pieces.push(text.subarray(from, at))
    size += at - from
    if (placed[n]! < 0) placed[n] = size
    pieces.push(body.subarray(tails[2 * n], tails[2 * n + 1]))
    size += tails[2 * n + 1]! - tails[2 * n]!
    from = close + CLOSE.length
  }
  pieces.push(text.subarray(from))
  size += text.length - from
  return { pieces, size, places: placed.includes(-1) ? undefined : { size: body.length, runs: tails, at: placed } }
}

/**
 * A buffer of at least `size` bytes for work that ends before the caller returns (the skeleton, the encoded JSON):
 * one kept and reused up to 8 MB, so a converted body allocates only what it hands on.
 */
let kept: Buffer<ArrayBuffer> = Buffer.allocUnsafeSlow(0)
function scratch(size: number): Buffer<ArrayBuffer> {
  if (size > 8 << 20) return Buffer.allocUnsafeSlow(size)
  if (kept.length < size) kept = Buffer.allocUnsafeSlow(Math.max(size, 2 * kept.length))
  return kept.subarray(0, size)
}
