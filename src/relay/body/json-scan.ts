/**
 * One pass over a JSON body's UTF-8 bytes that checks its structure and notes what the relay reads before
 * dispatch, without building the value: where each top-level member's value lies, the objects whose `type`
 * is a watched word, how many strings are one of the counted words, and the long strings under the client
 * protocol's splice paths (splice-paths.ts). A string's content is skipped with the native `indexOf`, so a body
 * of long tool results costs ~0.3 ms per MB (JSON.parse: 2–5 ms).
 *
 * Checked: the grammar outside strings (brackets, commas, colons, numbers, literals, one object, nothing after
 * it) and that every string ends. Not checked: what is inside a string (escapes, raw control characters);
 * a passthrough upstream parses the body itself and refuses those, and a body that is decoded is parsed (its
 * cut strings' rest checked by spliced-body.ts). Words and keys are compared as raw bytes: a word spelled with
 * escapes (`"t\u0079pe"`) is not recognised.
 */
import { childByKey, spliceable, type SpliceTrie } from './splice-paths'

interface Span {
  start: number
  end: number
}

export interface JsonScan {
  /** why the bytes are not one JSON object; everything below is meaningless then */
  problem?: string
  /** byte offset of the top-level `{` */
  open: number
  /** top-level members: each key's value span (the last one when a key repeats, as JSON.parse keeps it) */
  members: Map<string, Span>
  /** spans of the objects whose `type` is a watched type, by type */
  typed: Map<string, Span[]>
  /** strings (keys or values) equal to one of the counted words */
  counted: number
  /** how deep containers nest (the top-level object is 1) */
  depth: number
  /** the long strings under the watch's splice paths: start and end of each one's content (quotes excluded), in pairs */
  spliced: number[]
}

/** Words a scan looks for, encoded once and bucketed by length. */
interface Words {
  list: readonly string[]
  bytes: readonly Uint8Array[]
  /** indices into `list` by the word's byte length */
  byLength: readonly (number[] | undefined)[]
}

/** What a scan notes: the `type` values of objects to record, and the words to count. Build once. */
export interface ScanWatch {
  types: Words
  count: Words
  splice?: SpliceTrie
}

const encoder = new TextEncoder()
function words(list: readonly string[]): Words {
  const bytes = list.map((word) => encoder.encode(word))
  const byLength: number[][] = []
  bytes.forEach((word, index) => (byLength[word.length] ??= []).push(index))
  return { list, bytes, byLength }
}

export function scanWatch(watch: { types?: readonly string[]; count?: readonly string[]; splice?: SpliceTrie } = {}): ScanWatch {
  return { types: words(watch.types ?? []), count: words(watch.count ?? []), splice: watch.splice }
}
const NOTHING = scanWatch()

const QUOTE = 0x22
const BACKSLASH = 0x5c
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
/** [t y p e] */
const TYPE = encoder.encode('type')

/** Expecting: a value; a value or `]`; a key or `}`; a key; `:`; `,` or the container's end. */
const enum Want {
  Value,
  ValueOrEnd,
  KeyOrEnd,
  Key,
  Colon,
  CommaOrEnd,
}

export function scanJson(b: Uint8Array, watch: ScanWatch = NOTHING): JsonScan {
  const out: JsonScan = { open: -1, members: new Map(), typed: new Map(), counted: 0, depth: 0, spliced: [] }
  const n = b.length
  const fail = (what: string, at: number): JsonScan => {
    out.problem = at >= n ? `the body ends early (${what})` : `${what} at byte ${at}`
    return out
  }
  // containers open: 1 object, 2 array; per object, its start and the watched type it has (index + 1)
  let kinds = new Uint8Array(64)
  let starts = new Int32Array(64)
  let types = new Uint16Array(64)
  // per container, its node in the splice trie (-1: nothing under it is spliced); `slot`, the node of the value read next
  let nodes = new Int16Array(64)
  const trie = watch.splice
  let slot = -1
  let depth = 0
  let want = Want.Value
  let keyIsType = false
  let member = '' // the top-level key whose value is being read
  let memberStart = -1
  let i = 0
  while (i < n && isSpace(b[i]!)) i++
  if (b[i] !== 0x7b) return fail(i >= n ? 'a JSON object' : 'expected a JSON object', i)

  // a value ends at `end`: a top-level one is a member; then a comma or the container's end
  const closeValue = (end: number): Want => {
    if (depth === 1 && memberStart >= 0) {
      out.members.set(member, { start: memberStart, end })
      memberStart = -1
    }
    return Want.CommaOrEnd
  }

  while (i < n) {
    const c = b[i]!
    if (isSpace(c)) {
      i++
      continue
    }
    if (c === QUOTE) {
      const end = stringEnd(b, i + 1)
      if (end < 0) return fail('a string that does not end', n)
      const len = end - i - 2
      if (want === Want.Key || want === Want.KeyOrEnd) {
        keyIsType = len === 4 && equalAt(b, i + 1, TYPE)
        if (depth === 1) member = decodeKey(b, i, end)
        slot = trie && nodes[depth]! >= 0 ? childByKey(trie, nodes[depth]!, b, i + 1, len) : -1
        want = Want.Colon
      } else if (want === Want.Value || want === Want.ValueOrEnd) {
        if (keyIsType) {
          const t = wordIndex(watch.types, b, i + 1, len)
          if (t >= 0) types[depth] = t + 1
        }
        if (slot >= 0 && spliceable(trie!.leaf[slot]!, b, i + 1, len)) out.spliced.push(i + 1, end - 1)
        want = closeValue(end)
      } else return fail('unexpected string', i)
      if (watch.count.byLength[len] && wordIndex(watch.count, b, i + 1, len) >= 0) out.counted++
      keyIsType &&= want === Want.Colon
      i = end
      continue
    }
    switch (want) {
      case Want.Colon:
        if (c !== 0x3a) return fail("expected ':'", i)
        want = Want.Value
        i++
        if (depth === 1) {
          while (i < n && isSpace(b[i]!)) i++
          memberStart = i
        }
        continue
      case Want.CommaOrEnd:
        if (c === 0x2c) {
          want = kinds[depth] === 1 ? Want.Key : Want.Value
          if (want === Want.Value) slot = trie && nodes[depth]! >= 0 ? trie.star[nodes[depth]!]! : -1
          keyIsType = false
          i++
          continue
        }
        if (c === 0x7d || c === 0x5d) break
        return fail("expected ',' or the end of the object or array", i)
      case Want.KeyOrEnd:
        if (c === 0x7d) break
        return fail('expected a key', i)
      case Want.Key:
        return fail('expected a key', i)
    }
    if (c === 0x7d || c === 0x5d) {
      if ((c === 0x7d ? 1 : 2) !== kinds[depth] || want === Want.Value) return fail(`unexpected '${String.fromCharCode(c)}'`, i)
      if (types[depth]) noteTyped(out, watch.types.list[types[depth]! - 1]!, starts[depth]!, i + 1)
      types[depth] = 0
      depth--
      i++
      if (depth === 0) {
        while (i < n && isSpace(b[i]!)) i++
        return i < n ? fail('unexpected data after the object', i) : out
      }
      want = closeValue(i)
      continue
    }
    // a value
    if (want !== Want.Value && want !== Want.ValueOrEnd) return fail('unexpected value', i)
    if (c === 0x7b || c === 0x5b) {
      if (depth === 0) out.open = i
      if (++depth === kinds.length) [kinds, starts, types, nodes] = [grow(kinds), grow(starts), grow(types), grow(nodes)]
      if (depth > out.depth) out.depth = depth
      kinds[depth] = c === 0x7b ? 1 : 2
      starts[depth] = i
      types[depth] = 0
      nodes[depth] = depth === 1 ? (trie ? 0 : -1) : slot
      if (c === 0x5b) slot = trie && nodes[depth]! >= 0 ? trie.star[nodes[depth]!]! : -1
      want = c === 0x7b ? Want.KeyOrEnd : Want.ValueOrEnd
      keyIsType = false
      i++
      continue
    }
    const end = scalarEnd(b, i)
    if (end < 0) return fail('unexpected character', i)
    keyIsType = false
    want = closeValue(end)
    i = end
  }
  return fail('unclosed object or array', n)
}

/** Index after the closing quote of the string whose content starts at `from`, or -1. */
function stringEnd(b: Uint8Array, from: number): number {
  // most strings of a body's structure are short (keys, types, ids): look at them here, a native call costs more
  const near = Math.min(from + 24, b.length)
  for (let k = from; k < near; k++) {
    const c = b[k]
    if (c === QUOTE) return k + 1
    if (c === BACKSLASH) break
  }
  let at = from
  for (;;) {
    const q = b.indexOf(QUOTE, at)
    if (q < 0) return -1
    if (b[q - 1] !== BACKSLASH) return q + 1
    let k = q - 1
    while (b[k] === BACKSLASH) k--
    if ((q - 1 - k) % 2 === 0) return q + 1 // an even run of backslashes escapes itself, not the quote
    at = q + 1
  }
}

const LITERALS = [encoder.encode('true'), encoder.encode('false'), encoder.encode('null')]

/** End of the number or literal at `i`, or -1 when it is neither. */
function scalarEnd(b: Uint8Array, i: number): number {
  const c = b[i]!
  if (c === 0x74 || c === 0x66 || c === 0x6e) {
    const word = LITERALS[c === 0x74 ? 0 : c === 0x66 ? 1 : 2]!
    return equalAt(b, i, word) ? i + word.length : -1
  }
  return numberEnd(b, i)
}

const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39

/** JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
function numberEnd(b: Uint8Array, start: number): number {
  let i = start
  if (b[i] === 0x2d) i++
  if (b[i] === 0x30) i++
  else if (isDigit(b[i])) while (isDigit(b[i])) i++
  else return -1
  if (b[i] === 0x2e) {
    if (!isDigit(b[++i])) return -1
    while (isDigit(b[i])) i++
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++
    if (b[i] === 0x2b || b[i] === 0x2d) i++
    if (!isDigit(b[i])) return -1
    while (isDigit(b[i])) i++
  }
  return i
}

function equalAt(b: Uint8Array, at: number, word: Uint8Array): boolean {
  for (let k = 0; k < word.length; k++) if (b[at + k] !== word[k]) return false
  return true
}

/** Index in `words.list` of the word the `len` bytes at `at` spell, or -1. */
function wordIndex(words: Words, b: Uint8Array, at: number, len: number): number {
  const bucket = words.byLength[len]
  if (bucket) for (const index of bucket) if (equalAt(b, at, words.bytes[index]!)) return index
  return -1
}

function noteTyped(out: JsonScan, type: string, start: number, end: number): void {
  const spans = out.typed.get(type)
  if (spans) spans.push({ start, end })
  else out.typed.set(type, [{ start, end }])
}

const keyDecoder = new TextDecoder()
/** A top-level key as JSON.parse reads it (its quotes included in [start, end)). */
function decodeKey(b: Uint8Array, start: number, end: number): string {
  const raw = keyDecoder.decode(b.subarray(start, end))
  return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1)
}

function grow<T extends Uint8Array | Uint16Array | Int16Array | Int32Array>(a: T): T {
  const bigger = new (a.constructor as new (n: number) => T)(a.length * 2)
  bigger.set(a)
  return bigger
}
