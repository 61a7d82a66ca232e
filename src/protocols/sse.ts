/**
 * Server-sent events: an incremental parser that survives any chunk boundary (split lines, split `\r\n`,
 * split UTF-8 multibyte characters) and a frame encoder. Follows the WHATWG event-stream grammar:
 * lines end in `\r\n`, `\n` or `\r`; a blank line dispatches; `:` starts a comment; one leading space after the
 * colon is dropped; several `data` lines join with `\n`.
 */

export interface SseEvent {
  /** The `event:` field, when one was sent (the spec's default type is `message`). */
  event?: string
  data: string
  id?: string
  retry?: number
}

/** Longest line the parser holds while waiting for its end (characters); past it the input is not an event stream. */
const MAX_SSE_LINE = 32 * 1024 * 1024

export class SseParser {
  /** events dispatched so far */
  dispatched = 0
  /**
   * The first line that is no SSE field (nor a comment), cut to 80 characters: an HTML error page, a JSON body sent
   * as the stream. The spec says to ignore such lines; a relay must not pass them on as an event stream.
   */
  invalid: string | undefined
  /** `dispatched` when `invalid` was read: the events before it are whole */
  invalidAt = 0
  private readonly decoder = new TextDecoder('utf-8')
  /** Incomplete line carried over from the previous chunk. */
  private rest = ''
  /** The previous chunk ended in `\r`: a `\n` at the start of the next one belongs to it. */
  private skipLf = false
  private started = false
  private event: string | undefined
  private data = ''
  private hasData = false
  private id: string | undefined
  private retry: number | undefined

  /** Feeds bytes (or already decoded text); returns the events completed by this chunk. */
  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true })
    if (text.length === 0) return []
    if (!this.started) {
      this.started = true
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    }
    if (this.skipLf) {
      this.skipLf = false
      if (text.charCodeAt(0) === 10) text = text.slice(1)
    }
    const buf = this.rest.length ? this.rest + text : text
    const out: SseEvent[] = []
    const len = buf.length
    let pos = 0
    let nl = buf.indexOf('\n')
    let cr = buf.indexOf('\r')
    while (pos < len) {
      if (nl !== -1 && nl < pos) nl = buf.indexOf('\n', pos)
      if (cr !== -1 && cr < pos) cr = buf.indexOf('\r', pos)
      let end: number
      let next: number
      if (cr !== -1 && (nl === -1 || cr < nl)) {
        end = cr
        if (cr + 1 < len) next = buf.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1
        else {
          next = cr + 1
          this.skipLf = true
        }
      } else if (nl !== -1) {
        end = nl
        next = nl + 1
      } else break
      this.line(buf, pos, end, out)
      pos = next
    }
    this.rest = pos === 0 ? buf : buf.slice(pos)
    if (this.rest.length > MAX_SSE_LINE && this.invalid === undefined) {
      this.invalid = `a line of more than ${MAX_SSE_LINE} characters`
      this.invalidAt = this.dispatched
    }
    return out
  }

  /** True between events: nothing of a next event has been read yet (no partial line, field or `\r`). */
  idle(): boolean {
    return this.rest.length === 0 && !this.skipLf && !this.hasData && this.event === undefined && this.id === undefined && this.retry === undefined
  }

  /**
   * End of input. A final event without its blank line is still dispatched (lenient: several upstreams
   * close the connection right after the last `data:` line).
   */
  end(): SseEvent[] {
    const out: SseEvent[] = []
    const tail = this.decoder.decode()
    if (tail) out.push(...this.push(tail))
    if (this.rest.length) {
      const r = this.rest
      this.rest = ''
      this.line(r, 0, r.length, out)
    }
    this.dispatch(out)
    return out
  }

  private line(buf: string, start: number, end: number, out: SseEvent[]): void {
    if (start === end) {
      this.dispatch(out)
      return
    }
    const first = buf.charCodeAt(start)
    if (first === 58 /* : */) return
    const colon = buf.indexOf(':', start)
    let field: string
    let value: string
    if (colon === -1 || colon >= end) {
      field = buf.slice(start, end)
      value = ''
    } else {
      field = buf.slice(start, colon)
      const vs = buf.charCodeAt(colon + 1) === 32 && colon + 1 < end ? colon + 2 : colon + 1
      value = buf.slice(vs, end)
    }
    switch (field) {
      case 'data':
        this.data = this.hasData ? this.data + '\n' + value : value
        this.hasData = true
        break
      case 'event':
        this.event = value
        break
      case 'id':
        if (!value.includes('\0')) this.id = value
        break
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value)
        break
      default:
        if (this.invalid === undefined) {
          this.invalid = buf.slice(start, Math.min(end, start + 80))
          this.invalidAt = this.dispatched
        }
    }
  }

  private dispatch(out: SseEvent[]): void {
    if (this.hasData) {
      this.dispatched++
      const ev: SseEvent = { data: this.data }
      if (this.event !== undefined && this.event !== '') ev.event = this.event
      if (this.id !== undefined) ev.id = this.id
      if (this.retry !== undefined) ev.retry = this.retry
      out.push(ev)
    }
    this.event = undefined
    this.data = ''
    this.hasData = false
    this.retry = undefined
    // `id` persists (last event id) per spec, but we only report it on the event that set it.
    this.id = undefined
  }
}

/** Parses a complete SSE text (tests, recorded fixtures). */
export function parseSseText(text: string): SseEvent[] {
  const p = new SseParser()
  return [...p.push(text), ...p.end()]
}

/** One SSE frame. Multi-line data becomes several `data:` lines. */
export function encodeSse(ev: { event?: string; data: string; id?: string }): string {
  let s = ''
  if (ev.event !== undefined) s += `event: ${ev.event}\n`
  if (ev.id !== undefined) s += `id: ${ev.id}\n`
  const d = ev.data
  if (d.includes('\n') || d.includes('\r')) {
    for (const line of d.split(/\r\n|\r|\n/)) s += `data: ${line}\n`
  } else s += `data: ${d}\n`
  return s + '\n'
}

/** `event: <name>\ndata: <json>\n\n` */
export function sseEvent(event: string, payload: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`
}

/** `data: <json>\n\n` */
export function sseData(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`
}

export const SSE_DONE = 'data: [DONE]\n\n'
