/**
 * A Server-Sent Events parser for streamed answers (the playground reads `/pg/chat/completions` with fetch,
 * which has no EventSource for POST). Pure: feed it bytes or text as they arrive, it hands back whole events.
 *
 * Follows the HTML standard's rules: lines end in CRLF, LF or CR (a CR at the end of a chunk waits for the
 * next one, which may start with its LF); a blank line dispatches; `:` starts a comment; `data:` lines join
 * with "\n"; one space after the colon is dropped; a leading BOM is ignored. Bytes are decoded in stream
 * mode, so a UTF-8 character split between chunks comes out whole.
 */

export interface SseEvent {
  /** the `event:` field, "message" when none was given */
  event: string
  /** the `data:` lines joined with "\n" */
  data: string
  /** the last `id:` seen (it carries over to later events, as in EventSource) */
  id: string
}

export interface SseParser {
  /** a chunk of the stream: bytes (decoded here) or text */
  push(chunk: Uint8Array | string): SseEvent[]
  /** the stream ended: flush what is left (an unterminated last event is still handed out) */
  end(): SseEvent[]
}

export function createSseParser(): SseParser {
  const decoder = new TextDecoder('utf-8')
  let buffer = ''
  let started = false
  let data: string[] = []
  let event = ''
  let id = ''

  const dispatch = (out: SseEvent[]) => {
    if (data.length > 0) out.push({ event: event || 'message', data: data.join('\n'), id })
    data = []
    event = ''
  }

  const line = (text: string, out: SseEvent[]) => {
    if (text === '') return dispatch(out)
    if (text.startsWith(':')) return
    const colon = text.indexOf(':')
    const field = colon === -1 ? text : text.slice(0, colon)
    let value = colon === -1 ? '' : text.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') data.push(value)
    else if (field === 'event') event = value
    else if (field === 'id' && !value.includes('\0')) id = value
    // `retry` and unknown fields are ignored
  }

  const scan = (final: boolean): SseEvent[] => {
    const out: SseEvent[] = []
    let start = 0
    for (let i = 0; i < buffer.length; i++) {
      const code = buffer.charCodeAt(i)
      if (code !== 10 && code !== 13) continue
      if (code === 13) {
        if (i + 1 === buffer.length && !final) break // maybe the first half of a CRLF: wait for the next chunk
        line(buffer.slice(start, i), out)
        if (buffer.charCodeAt(i + 1) === 10) i++
      } else {
        line(buffer.slice(start, i), out)
      }
      start = i + 1
    }
    buffer = buffer.slice(start)
    if (final) {
      if (buffer) line(buffer, out)
      buffer = ''
      dispatch(out)
    }
    return out
  }

  const add = (text: string) => {
    if (!started && text) {
      started = true
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    }
    buffer += text
  }

  return {
    push(chunk) {
      add(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))
      return scan(false)
    },
    end() {
      add(decoder.decode())
      return scan(true)
    },
  }
}
