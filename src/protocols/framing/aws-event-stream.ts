/**
 * The AWS event-stream binary framing (`application/vnd.amazon.eventstream`, Bedrock's ConverseStream and
 * InvokeModelWithResponseStream). Each message:
 *
 *   total length u32 | headers length u32 | prelude CRC32 u32 | headers | payload | message CRC32 u32
 *
 * (big-endian; the prelude CRC covers the first 8 bytes, the message CRC everything before it). A header is
 * name length u8, name, value type u8, value. The decoder is incremental (any chunk boundary) and refuses a
 * message whose CRCs do not match; like `SseParser`, it records the first fault in `invalid` and stops there.
 */
import type { SseEvent } from '../sse.ts'

export interface EventStreamMessage {
  /** header values as text: numbers in decimal, booleans `true`/`false`, bytes base64, timestamps ISO 8601 */
  headers: Record<string, string>
  /** a view into the received bytes */
  payload: Uint8Array
}

/** An event-stream message as an SSE-shaped event; `exception` marks `:message-type` exception or error. */
export interface EventStreamEvent extends SseEvent {
  event: string
  exception?: true
}

const PRELUDE = 12
const MIN_MESSAGE = 16
/** The spec's limits: 16 MiB per message, 128 KiB of headers. */
const MAX_MESSAGE = 16 * 1024 * 1024
const MAX_HEADERS = 128 * 1024

const utf8 = new TextDecoder('utf-8')
const utf8Encoder = new TextEncoder()
const crc32 = (bytes: Uint8Array) => Bun.hash.crc32(bytes) >>> 0

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
}

/** Header values by type: 0/1 bool, 2 byte, 3 short, 4 int, 5 long, 6 bytes, 7 string, 8 timestamp, 9 uuid. */
function headerValue(view: DataView, bytes: Uint8Array, at: number, type: number): { value: string; next: number } | undefined {
  switch (type) {
    case 0:
    case 1:
      return { value: type === 0 ? 'true' : 'false', next: at }
    case 2:
      return at + 1 <= bytes.length ? { value: String(view.getInt8(at)), next: at + 1 } : undefined
    case 3:
      return at + 2 <= bytes.length ? { value: String(view.getInt16(at)), next: at + 2 } : undefined
    case 4:
      return at + 4 <= bytes.length ? { value: String(view.getInt32(at)), next: at + 4 } : undefined
    case 5:
      return at + 8 <= bytes.length ? { value: view.getBigInt64(at).toString(), next: at + 8 } : undefined
    case 8:
      return at + 8 <= bytes.length ? { value: new Date(Number(view.getBigInt64(at))).toISOString(), next: at + 8 } : undefined
    case 9: {
      if (at + 16 > bytes.length) return undefined
      const h = hex(bytes.subarray(at, at + 16))
      return { value: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`, next: at + 16 }
    }
    case 6:
    case 7: {
      if (at + 2 > bytes.length) return undefined
      const end = at + 2 + view.getUint16(at)
      if (end > bytes.length) return undefined
      const raw = bytes.subarray(at + 2, end)
      return { value: type === 7 ? utf8.decode(raw) : Buffer.from(raw).toString('base64'), next: end }
    }
    default:
      return undefined
  }
}

function parseHeaders(bytes: Uint8Array): Record<string, string> | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out: Record<string, string> = {}
  let at = 0
  while (at < bytes.length) {
    const nameLength = bytes[at]!
    const nameEnd = at + 1 + nameLength
    if (nameLength === 0 || nameEnd + 1 > bytes.length) return undefined
    const name = utf8.decode(bytes.subarray(at + 1, nameEnd))
    const parsed = headerValue(view, bytes, nameEnd + 1, bytes[nameEnd]!)
    if (!parsed) return undefined
    out[name] = parsed.value
    at = parsed.next
  }
  return out
}

export class EventStreamDecoder {
  /** messages decoded so far */
  dispatched = 0
  /** The first fault (bad length or CRC, truncated stream); nothing after it is decoded. */
  invalid: string | undefined
  /** `dispatched` when `invalid` was set: the messages before it are whole and verified */
  invalidAt = 0
  /** unread chunks, joined only once they hold `need` bytes (a large message arriving in pieces is copied once) */
  private chunks: Uint8Array[] = []
  private buffered = 0
  private need = PRELUDE

  push(chunk: Uint8Array): EventStreamMessage[] {
    if (this.invalid !== undefined || chunk.length === 0) return []
    this.chunks.push(chunk)
    this.buffered += chunk.length
    if (this.buffered < this.need) return []
    const buf = this.chunks.length === 1 ? chunk : Buffer.concat(this.chunks, this.buffered)
    const out: EventStreamMessage[] = []
    let at = 0
    this.need = PRELUDE
    while (buf.length - at >= PRELUDE) {
      const view = new DataView(buf.buffer, buf.byteOffset + at, PRELUDE)
      const total = view.getUint32(0)
      const headersLength = view.getUint32(4)
      if (crc32(buf.subarray(at, at + 8)) !== view.getUint32(8)) return this.fail(out, 'prelude CRC mismatch')
      if (total < MIN_MESSAGE || total > MAX_MESSAGE) return this.fail(out, `message length ${total} out of range`)
      if (headersLength > MAX_HEADERS || headersLength > total - MIN_MESSAGE) return this.fail(out, `headers length ${headersLength} out of range`)
      if (buf.length - at < total) {
        this.need = total
        break
      }
      const message = buf.subarray(at, at + total)
      const crcView = new DataView(message.buffer, message.byteOffset + total - 4, 4)
      if (crc32(message.subarray(0, total - 4)) !== crcView.getUint32(0)) return this.fail(out, 'message CRC mismatch')
      const headers = parseHeaders(message.subarray(PRELUDE, PRELUDE + headersLength))
      if (!headers) return this.fail(out, 'malformed headers')
      out.push({ headers, payload: message.subarray(PRELUDE + headersLength, total - 4) })
      this.dispatched++
      at += total
    }
    // keep only the unread tail, copied, so a large chunk is not held for a few bytes
    this.chunks = at === buf.length ? [] : [new Uint8Array(buf.subarray(at))]
    this.buffered = buf.length - at
    return out
  }

  /** True between messages: nothing of a next message has been read. */
  idle(): boolean {
    return this.buffered === 0
  }

  /** End of input: a partial message left over means the stream was cut. */
  end(): EventStreamMessage[] {
    if (this.invalid === undefined && this.buffered) this.fail([], `the stream ended inside a message (${this.buffered} bytes)`)
    return []
  }

  private fail(out: EventStreamMessage[], why: string): EventStreamMessage[] {
    this.invalid = `AWS event stream: ${why}`
    this.invalidAt = this.dispatched
    this.chunks = []
    this.buffered = 0
    return out
  }
}

/**
 * A message as the relay's SSE-shaped event: `event` is the `:event-type` header and `data` the payload text;
 * an exception carries its `:exception-type` as `event` and `exception: true`; an `error` message (no payload)
 * its `:error-code`, with `data` `{"message": <:error-message>}`.
 */
export function toSseEvent(message: EventStreamMessage): EventStreamEvent {
  const h = message.headers
  const kind = h[':message-type'] ?? 'event'
  if (kind === 'exception') return { event: h[':exception-type'] ?? 'exception', data: utf8.decode(message.payload), exception: true }
  if (kind === 'error') return { event: h[':error-code'] ?? 'error', data: JSON.stringify({ message: h[':error-message'] ?? '' }), exception: true }
  return { event: h[':event-type'] ?? 'message', data: utf8.decode(message.payload) }
}

/** `SseParser`'s surface over event-stream bytes: push chunks, get SSE-shaped events. */
export class AwsEventStreamParser {
  private readonly decoder = new EventStreamDecoder()

  get dispatched(): number {
    return this.decoder.dispatched
  }
  get invalid(): string | undefined {
    return this.decoder.invalid
  }
  get invalidAt(): number {
    return this.decoder.invalidAt
  }

  push(chunk: Uint8Array): EventStreamEvent[] {
    return this.decoder.push(chunk).map(toSseEvent)
  }

  idle(): boolean {
    return this.decoder.idle()
  }

  end(): EventStreamEvent[] {
    return this.decoder.end().map(toSseEvent)
  }
}

/** Encodes one message with string headers (type 7). For tests and fake upstreams. */
export function encodeEventStreamMessage(headers: Record<string, string>, payload: Uint8Array | string): Uint8Array {
  const body = typeof payload === 'string' ? utf8Encoder.encode(payload) : payload
  const parts: Uint8Array[] = []
  for (const [name, value] of Object.entries(headers)) {
    const n = utf8Encoder.encode(name)
    const v = utf8Encoder.encode(value)
    const part = new Uint8Array(1 + n.length + 3 + v.length)
    part[0] = n.length
    part.set(n, 1)
    part[1 + n.length] = 7
    new DataView(part.buffer).setUint16(2 + n.length, v.length)
    part.set(v, 4 + n.length)
    parts.push(part)
  }
  const headersLength = parts.reduce((s, p) => s + p.length, 0)
  const total = PRELUDE + headersLength + body.length + 4
  const out = new Uint8Array(total)
  const view = new DataView(out.buffer)
  view.setUint32(0, total)
  view.setUint32(4, headersLength)
  view.setUint32(8, crc32(out.subarray(0, 8)))
  let at = PRELUDE
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  out.set(body, at)
  view.setUint32(total - 4, crc32(out.subarray(0, total - 4)))
  return out
}

/** An `event` message with a JSON payload, as Bedrock sends them. */
export function eventFrame(eventType: string, payload: unknown): Uint8Array {
  return encodeEventStreamMessage(
    { ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' },
    typeof payload === 'string' ? payload : JSON.stringify(payload),
  )
}

/** An `exception` message (`{"message": …}` payload), as Bedrock sends a failure inside a stream. */
export function exceptionFrame(exceptionType: string, message: string, extra: Record<string, unknown> = {}): Uint8Array {
  return encodeEventStreamMessage(
    { ':exception-type': exceptionType, ':content-type': 'application/json', ':message-type': 'exception' },
    JSON.stringify({ message, ...extra }),
  )
}
