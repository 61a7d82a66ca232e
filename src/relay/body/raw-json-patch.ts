import type { BodyPlaces } from './places'
import { joinedPieces, type BodyPieces } from './pieces'
import { scanJson, type JsonScan } from './json-scan'

/**
 * Set top-level fields of a JSON object while keeping every other byte as the client sent it (spacing, key
 * order, escapes, number spelling): passthrough must not re-serialise what it only relays. `scan` is the
 * body's scan (json-scan.ts), which located each top-level value; only the bytes around the edits are copied.
 */
export function patchMembers(bytes: Uint8Array<ArrayBuffer>, scan: JsonScan, patch: Record<string, unknown>): BodyPieces & { places: BodyPlaces } {
  const edits: { start: number; end: number; text: Uint8Array<ArrayBuffer> }[] = []
  const inserts: string[] = []
  for (const [key, value] of Object.entries(patch)) {
    const span = scan.members.get(key)
    if (span) edits.push({ start: span.start, end: span.end, text: encoder.encode(JSON.stringify(value)) })
    else inserts.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`)
  }
  if (inserts.length) {
    const text = inserts.join(',') + (scan.members.size ? ',' : '')
    edits.push({ start: scan.open + 1, end: scan.open + 1, text: encoder.encode(text) })
  }
  edits.sort((a, b) => a.start - b.start)
  // every byte but the replaced values is a piece as it was: where, so the client's bytes can be made from the body again
  const pieces: Uint8Array<ArrayBuffer>[] = []
  const runs: number[] = []
  const runsAt: number[] = []
  let from = 0
  let at = 0
  for (const edit of edits) {
    pieces.push(bytes.subarray(from, edit.start), edit.text)
    runs.push(from, edit.start)
    runsAt.push(at)
    at += edit.start - from + edit.text.length
    from = edit.end
  }
  pieces.push(bytes.subarray(from))
  runs.push(from, bytes.length)
  runsAt.push(at)
  return { pieces, size: at + bytes.length - from, places: { size: bytes.length, runs, at: runsAt } }
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** `patchMembers` on a text; undefined when the text is not a single JSON object. */
export function patchTopLevel(raw: string, patch: Record<string, unknown>): string | undefined {
  const bytes = encoder.encode(raw)
  const scan = scanJson(bytes)
  return scan.problem ? undefined : decoder.decode(joinedPieces(patchMembers(bytes, scan, patch)))
}
