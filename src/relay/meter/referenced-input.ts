import type { IrRequest, Part } from '../../ir'

/**
 * Input a chat request names but does not hold, whose tokens its bytes therefore do not bound (metering reserves
 * the model's context window for it: metering/reserve.ts). From the decoded request: media by an http(s) URL or a
 * provider's file URL, Responses `item_reference` items. From the bytes (no decoding; what a decoder drops, such as
 * Anthropic's Files API sources, still reaches a passthrough upstream): a `file_id`, `fileUri` or `file_uri` member
 * with a string value. A tool's argument object that happens to have such a member reserves more than it needs, never less.
 */
export function referencedInIr(ir: IrRequest): string[] {
  const found = new Set<string>()
  for (const message of ir.messages) {
    if (message.role === 'opaque') {
      if (message.type === 'item_reference') found.add('item_reference')
      continue
    }
    for (const part of message.content) addMedia(part, found)
  }
  return [...found]
}

function addMedia(part: Part, found: Set<string>): void {
  if (part.type === 'tool-result') for (const inner of part.content) addMedia(inner, found)
  else if ((part.type === 'image' || part.type === 'file') && part.source.kind === 'url' && !part.source.url.startsWith('data:')) found.add(`${part.type} by URL or id`)
  // a document (PDF, audio) is billed per page or second, which neither a flat estimate nor its bytes bound
  else if (part.type === 'file' && !part.mediaType?.startsWith('image/')) found.add('inline document')
}

/** `"file`, then what makes it one of the keys: `_id"`, `Uri"`, `_uri"` (one pass over the bytes for all three). */
const FILE = Buffer.from('"file')
const ENDINGS = ['_id"', 'Uri"', '_uri"'].map((end) => Buffer.from(end))
const BACKSLASH = 0x5c

/** The first of the file keys the body's bytes hold as a member with a string value (not inside a string: unescaped). */
export function referencedInBytes(bytes: Uint8Array<ArrayBuffer>): string | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let at = b.indexOf(FILE); at >= 0; at = b.indexOf(FILE, at + 1)) {
    if (b[at - 1] === BACKSLASH) continue
    const after = at + FILE.length
    const end = ENDINGS.find((e) => b.compare(e, 0, e.length, after, after + e.length) === 0)
    if (!end) continue
    let i = after + end.length
    while (isSpace(b[i])) i++
    if (b[i++] !== 0x3a) continue
    while (isSpace(b[i])) i++
    if (b[i] === 0x22) return `file${end.toString('latin1').slice(0, -1)}`
  }
  return undefined
}

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
