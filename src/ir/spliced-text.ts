/**
 * A large request converted to another protocol is decoded with its long strings (tool results, texts, base64
 * media) cut short: each keeps its first bytes and then a mark naming the rest, which stays in the client's
 * bytes and is copied into the upstream body after encoding (relay/body/spliced-body.ts). Such a text may be joined,
 * prefixed, wrapped, copied and compared by its start; code that needs all of it (searching it, trimming it,
 * re-encoding it) calls `wholeText`, which refuses a marked text, and the relay converts the request again from
 * the body parsed whole. A body that holds the mark character itself is never decoded this way.
 */

/** Opens a mark (a private-use character): `MARK_OPEN` + its number + a backslash + `MARK_CLOSE`. */
export const MARK_OPEN = '\uE000'
export const MARK_CLOSE = '\uE001'

/** The text stands for more than it holds: part of it is still the client's bytes. */
export function isSpliced(text: string): boolean {
  return text.includes(MARK_OPEN)
}

/** Thrown where a converter needs a whole text and was handed a cut one: the relay decodes the body whole. */
export class SplicedTextError extends Error {
  constructor(where: string) {
    super(`${where} needs the whole text`)
  }
}

/** `text` when it is whole; throws SplicedTextError when part of it was left in the client's bytes. */
export function wholeText(text: string, where = 'a converter'): string {
  if (text.includes(MARK_OPEN)) throw new SplicedTextError(where)
  return text
}

/** `text` when its first `n` characters are its own (a cut text keeps its first bytes); throws otherwise. */
export function wholePrefix(text: string, n: number, where = 'a converter'): string {
  const at = text.indexOf(MARK_OPEN)
  if (at >= 0 && at < n) throw new SplicedTextError(where)
  return text
}
