import { isUtf8 } from 'node:buffer'
import { BadRequestError } from '../../errors'
import type { Protocol } from '../../protocols/types'
import { scanJson, scanWatch, type JsonScan, type ScanWatch } from './json-scan'
import { patchMembers } from './raw-json-patch'
import { compileSplicePaths } from './splice-paths'
import { gapBytes, gapsOf, rebuiltBody, type BodyPlaces } from './places'
import type { BodyPieces } from './pieces'
import { splicedBody, type SplicedBody } from './spliced-body'

/**
 * A chat request's body as the client sent it, read only as far as the relay needs. A small body (up to
 * `WHOLE_BODY_BYTES`) is parsed whole on arrival: the wire check reads all of it, and scanning a 23 KB turn
 * instead saved nothing measurable (bench/ab-latency.ts, within ±0.1 ms). A larger one is
 * scanned (json-scan.ts: structure checked, top-level members located) and only its top-level values up to
 * `STAND_IN_BYTES` are parsed: passthrough forwards its bytes and never builds the rest, conversion parses it
 * on demand. The bytes are what passthrough sends: no UTF-16 copy, no re-encoding.
 */
export interface RequestBody {
  /** UTF-8, as received (a leading BOM dropped and invalid sequences replaced, as text decoding would); throws while released */
  readonly bytes: Uint8Array<ArrayBuffer>
  /** the byte count, there even while released */
  readonly size: number
  /** the top-level fields: the body itself when `whole`, else with each value over STAND_IN_BYTES a stand-in of its kind */
  readonly view: Record<string, unknown>
  readonly whole: boolean
  /** the whole body parsed (a large body on the first call) */
  parsed(): Record<string, unknown>
  /** one top-level value, parsed (a stand-in of a large body's view is parsed from its bytes, the rest is not) */
  member(key: string): unknown
  /** the objects whose `type` is one of the protocol's `scanWords.patchTypes`, each with only `keys` read */
  objectsOfType(type: string, keys: readonly string[]): Record<string, unknown>[]
  /** strings of the body that are one of the protocol's `scanWords.media`: its media parts, at most */
  mediaWords(): number
  /** the body with top-level members set, every other byte as received, as its pieces (body-pieces.ts) */
  patched(patch: Record<string, unknown>): BodyPieces | undefined
  /** a large body parsed with its long strings cut (spliced-body.ts), for conversion; undefined when it cannot be */
  spliced(): SplicedBody | undefined
  /**
   * The bytes to send unchanged. From SHARED_SEND_BYTES on, a Blob made once: fetch copies bytes and array buffers
   * it is given (and holds the copy until the answer), a Blob it shares, so the body is held once, not twice.
   */
  sendable(): Uint8Array<ArrayBuffer> | Blob
  /**
   * Lets go of the bytes (and what was parsed or cut from them) between dispatch and the answer, when the Blob being
   * sent can give them back: the one `sendable` made, or a body made from them that holds most of them as they were
   * (`places`, body-places.ts: a conversion's long strings, a patch's unchanged bytes; what it does not hold is kept,
   * when that is under a quarter). Otherwise keeps them.
   */
  release(sent: { payload: unknown; places?: BodyPlaces }): void
  /** Reads the bytes back from that Blob after `release` (made again from a body made of them); undefined when they are here. */
  restore(): Promise<void> | undefined
}

/** Bodies up to this size are parsed whole before routing. */
export const WHOLE_BODY_BYTES = 32 * 1024
/** In a larger body, top-level values above this size are not parsed before dispatch. */
export const STAND_IN_BYTES = 4 * 1024
/** Bodies from this size are sent as a shared Blob and released while the upstream answers (`sendable`). */
const SHARED_SEND_BYTES = 1 << 20
/** The sizes as the relay reads them: tests lower them so that small bodies take the large bodies' path. */
export const bodyLimits = { wholeBytes: WHOLE_BODY_BYTES, standInBytes: STAND_IN_BYTES, sharedSendBytes: SHARED_SEND_BYTES }

const decoder = new TextDecoder() // as Request.text(): a BOM dropped, invalid sequences replaced
const encoder = new TextEncoder()

/** The body's bytes as text decoding sees them: a BOM dropped, invalid UTF-8 replaced (rare: re-encoded). */
export function utf8Body(raw: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const bytes = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.subarray(3) : raw
  return isUtf8(bytes) ? bytes : encoder.encode(decoder.decode(bytes))
}

export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes)
}

const watches = new WeakMap<Protocol, ScanWatch>()
export function watchOf(protocol: Protocol): ScanWatch {
  let watch = watches.get(protocol)
  if (!watch) {
    const splice = protocol.splicePaths ? compileSplicePaths(protocol.splicePaths) : undefined
    watches.set(protocol, (watch = scanWatch({ types: protocol.scanWords?.patchTypes, count: protocol.scanWords?.media, splice })))
  }
  return watch
}

/** A body parsed whole on arrival. */
export function wholeBody(bytes: Uint8Array<ArrayBuffer>, parsed: Record<string, unknown>, watch: ScanWatch): RequestBody {
  let scan: JsonScan | undefined
  const body = bodyOf(bytes, parsed, true, () => parsed, () => (scan ??= scanJson(bytes, watch)))
  body.spliced = () => undefined // parsed already
  // held parsed anyway (small, or a large body that could not be scanned): sent as bytes, never released
  body.sendable = () => bytes
  body.release = () => {}
  // parsed already: walked, and only when the bytes hold the type as a value (a scan of 23 KB costs ~40 µs, this ~2)
  body.objectsOfType = (type, keys) => (holdsValue(bytes, type) ? typedObjects(parsed, type, keys) : [])
  return body
}

/** Whether `"word"` occurs in the bytes other than as a key (raw bytes: an escaped spelling is not seen). */
function holdsValue(bytes: Uint8Array<ArrayBuffer>, word: string): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const quoted = `"${word}"`
  for (let at = buffer.indexOf(quoted); at >= 0; at = buffer.indexOf(quoted, at + 1)) {
    let next = at + Buffer.byteLength(quoted)
    while (buffer[next] === 0x20 || buffer[next] === 0x0a || buffer[next] === 0x0d || buffer[next] === 0x09) next++
    if (buffer[next] !== 0x3a) return true
  }
  return false
}

/** Every object in `value` whose `type` is `type`, with only `keys`. */
function typedObjects(value: unknown, type: string, keys: readonly string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  const stack = [value]
  while (stack.length) {
    const node = stack.pop()
    if (node === null || typeof node !== 'object') continue
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i])
      continue
    }
    const object = node as Record<string, unknown>
    if (object.type === type) out.push(Object.fromEntries(keys.filter((k) => k in object).map((k) => [k, object[k]])))
    const children = Object.values(object)
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i])
  }
  return out
}

const standIns = new WeakMap<object, ReadonlySet<string>>()
/** The top-level keys of a large body's view whose values are stand-ins (undefined for any other value). */
export function standInsOf(view: unknown): ReadonlySet<string> | undefined {
  return typeof view === 'object' && view !== null ? standIns.get(view) : undefined
}

/** A large body, scanned (`scan` has no problem): its view parsed from the small top-level values. */
export function scannedBody(bytes: Uint8Array<ArrayBuffer>, scan: JsonScan): RequestBody {
  const view: Record<string, unknown> = {}
  const big = new Set<string>()
  for (const [key, { start, end }] of scan.members) {
    const first = bytes[start]
    if (end - start > bodyLimits.standInBytes && (first === 0x22 || first === 0x5b || first === 0x7b)) {
      big.add(key)
      view[key] = first === 0x22 ? '\u2026' : first === 0x5b ? [] : {}
    } else view[key] = JSON.parse(decoder.decode(bytes.subarray(start, end)))
  }
  standIns.set(view, big)
  return bodyOf(bytes, view, big.size === 0, (held) => (big.size === 0 ? view : parseWhole(held)), () => scan)
}

/** A scanned body parsed whole: the scan did not look inside its strings, so JSON.parse may still refuse it (a 400). */
function parseWhole<T = Record<string, unknown>>(bytes: Uint8Array): T {
  try {
    return JSON.parse(decoder.decode(bytes)) as T
  } catch (error) {
    throw new BadRequestError(`the request body is not valid JSON: ${(error as Error).message}`)
  }
}

/**
 * The body around its bytes, which `release` drops (with what was parsed or cut from them) once a shared Blob holds
 * them and `restore` reads back; `parse` builds the whole body from the bytes, once per time they are held.
 */
function bodyOf(
  received: Uint8Array<ArrayBuffer>,
  view: Record<string, unknown>,
  whole: boolean,
  parse: (bytes: Uint8Array<ArrayBuffer>) => Record<string, unknown>,
  scan: () => JsonScan,
): RequestBody {
  let held: Uint8Array<ArrayBuffer> | undefined = received
  let blob: Blob | undefined
  /** where `restore` reads the bytes back from once `release` let go of them: a Blob, and how to make them from its bytes */
  let readBack: { blob: Blob; rebuild: (sent: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer> } | undefined
  let reading: Promise<void> | undefined
  let parsed: Record<string, unknown> | undefined
  let spliced: SplicedBody | undefined | null = null
  const size = received.length
  const standInValues = new Map<string, unknown>()
  const bytes = (): Uint8Array<ArrayBuffer> => {
    if (!held) throw new Error('the request body is released while the upstream answers: restore() it first')
    return held
  }
  return {
    get bytes() {
      return bytes()
    },
    size,
    view,
    whole,
    parsed: () => (parsed ??= parse(bytes())),
    member(key) {
      if (parsed || !standInsOf(view)?.has(key)) return (parsed ?? view)[key]
      // a stand-in's value is parsed once: metering and the body's patch both ask for `tools`
      if (!standInValues.has(key)) {
        const span = scan().members.get(key)!
        standInValues.set(key, parseWhole<unknown>(bytes().subarray(span.start, span.end)))
      }
      return standInValues.get(key)
    },
    objectsOfType(type, keys) {
      const b = bytes()
      return (scan().typed.get(type) ?? []).map(({ start, end }) => membersOf(b.subarray(start, end), keys))
    },
    mediaWords: () => scan().counted,
    patched(patch) {
      const s = scan()
      return s.problem ? undefined : patchMembers(bytes(), s, patch)
    },
    spliced: () => (spliced === null ? (spliced = splicedBody(bytes(), scan().spliced)) : spliced),
    sendable: () => (size < bodyLimits.sharedSendBytes ? bytes() : (blob ??= new Blob([bytes()]))),
    release(sent) {
      if (!held || !(sent.payload instanceof Blob)) return
      const { places } = sent
      // the request's own Blob holds every byte; a body made from them, all but the gaps (kept: worth it when they are few)
      if (blob) readBack = { blob, rebuild: (b) => b }
      else if (places && gapBytes(places) <= size / 4) {
        const gaps = gapsOf(held, places)
        readBack = { blob: sent.payload, rebuild: (b) => rebuiltBody(places, gaps, b) }
      } else return
      // Detached, the bytes' memory goes back to the allocator now, not at a later collection, so the next large
      // body of a burst reuses it. Nothing else views them: the route's parser let go, and the caches made from them go too.
      held.buffer.transfer(0)
      held = undefined
      parsed = undefined
      standInValues.clear()
      spliced = null
    },
    restore() {
      if (held) return undefined
      const from = readBack!
      return (reading ??= from.blob.bytes().then((b) => {
        held = from.rebuild(b)
        reading = undefined
      }))
    },
  }
}

/** Only `keys` of the object in `bytes`, parsed. */
function membersOf(bytes: Uint8Array, keys: readonly string[]): Record<string, unknown> {
  const { members } = scanJson(bytes)
  const out: Record<string, unknown> = {}
  for (const key of keys) {
    const span = members.get(key)
    if (span) out[key] = JSON.parse(decoder.decode(bytes.subarray(span.start, span.end)))
  }
  return out
}
