import type { StreamEvent } from '../../ir'
import { SseParser, type SseEvent } from '../../protocols/sse'
import type { FrameParser, StreamDecoder } from '../../protocols/types'
import { UpstreamFailure } from '../failure'
import { notJsonData, notJsonMessage, notSseMessage } from './check'

/** What was read from an upstream stream before committing to it. */
export interface PeekedStream {
  reader: ReadableStreamDefaultReader<Uint8Array>
  parser: FrameParser
  /** raw chunks read so far, for passthrough */
  chunks: Uint8Array[]
  /** SSE events parsed so far */
  events: SseEvent[]
  /** IR events of the first `fed` events: decoding stops at the first content */
  decoded: StreamEvent[]
  /** how many of `events` went through the decoder; the rest are the caller's to decode, if it needs them */
  fed: number
  /** the upstream closed during the peek (everything is in the buffers) */
  ended: boolean
}

const CONTENT_EVENTS = new Set<StreamEvent['type']>([
  'text-delta',
  'reasoning-delta',
  'reasoning-end',
  'tool-input-start',
  'finish',
])

/**
 * Read until the first event that carries content (or the end), so an error the upstream sends inside a
 * 200 stream before any content still counts as a failed attempt and the next channel can be tried.
 * Holding these few events adds no delay: the first content event ends the peek.
 */
export async function peekStream(body: ReadableStream<Uint8Array>, decoder: StreamDecoder, parser: FrameParser = new SseParser()): Promise<PeekedStream> {
  const peeked: PeekedStream = { reader: body.getReader(), parser, chunks: [], events: [], decoded: [], fed: 0, ended: false }
  try {
    for (;;) {
      const { done, value } = await peeked.reader.read()
      const events = done ? peeked.parser.end() : peeked.parser.push(value)
      if (!done) peeked.chunks.push(value)
      // A chunk may hold many events: keep them all, but decode only up to the first content (an error
      // counts only before it; an unpaced upstream sends the whole answer in one chunk).
      let content = false
      const parser = peeked.parser
      for (let i = 0; i < events.length; i++) {
        const event = events[i]!
        peeked.events.push(event)
        if (content) continue
        // Garbage before the first content (an HTML page, a line that is not JSON) fails the attempt; after it, the
        // stream pipe ends the client's stream with an error event.
        if (parser.invalid !== undefined && parser.invalidAt <= parser.dispatched - events.length + i) throw new UpstreamFailure(0, notSseMessage(parser.invalid), true)
        if (notJsonData(event.data)) throw new UpstreamFailure(0, notJsonMessage(event.data), true)
        peeked.fed++
        for (const decoded of decoder.push(event)) {
          peeked.decoded.push(decoded)
          if (decoded.type === 'error' && !content) throw new UpstreamFailure(decoded.error.status ?? 0, decoded.error.message, true)
          if (CONTENT_EVENTS.has(decoded.type)) content = true
        }
      }
      if (!content && parser.invalid !== undefined) throw new UpstreamFailure(0, notSseMessage(parser.invalid), true)
      if (content && !done) return peeked
      if (done) {
        peeked.ended = true
        if (peeked.events.length === 0) throw new UpstreamFailure(0, 'upstream closed the stream without sending anything', true)
        return peeked
      }
    }
  } catch (error) {
    void peeked.reader.cancel().catch(() => {})
    if (error instanceof UpstreamFailure) throw error
    throw new UpstreamFailure(0, `upstream stream broke before any content: ${(error as Error).message}`, true)
  }
}
