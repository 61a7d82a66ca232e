import { SseParser } from '../../protocols/sse'
import { UpstreamFailure } from '../../relay/failure'
import { notJsonData, notJsonMessage, notSseMessage } from '../../relay/stream/check'

/** How one dialect turns the upstream's SSE events into the client's frames. */
export interface SseTranslator {
  /**
   * The client's frames for one upstream `data` payload ('' sends nothing), and whether it carried content.
   * A payload that is an error throws UpstreamFailure: before the first content that fails the attempt.
   * `event` is the event's `event:` field, when it has one (the image streams name theirs).
   */
  frame(data: string, event?: string): { frames: string; content: boolean }
  /** frames after the upstream's last event (a usage chunk, `[DONE]`), '' for none */
  end(): string
  /** the stream ended with an error event after its first content (broken off, garbled): why, for the log */
  broke?(message: string): void
}

const encoder = new TextEncoder()

/**
 * Reads the upstream stream up to its first content (an error event, a line that is not SSE or data that is not
 * JSON before it fails the attempt, so another channel may be tried), then relays the rest event by event as it
 * arrives. After the first content a broken or garbled upstream ends the client's stream with an OpenAI-style
 * error event; the client going away cancels the upstream.
 */
export async function relaySse(body: ReadableStream<Uint8Array> | null, translator: SseTranslator): Promise<ReadableStream<Uint8Array>> {
  if (!body) throw new UpstreamFailure(0, 'upstream sent no body', true)
  const reader = body.getReader()
  const parser = new SseParser()
  let held = ''
  let ended = false
  try {
    for (let content = false; !content; ) {
      const { done, value } = await reader.read()
      const events = done ? parser.end() : parser.push(value)
      if (parser.invalid !== undefined) throw new UpstreamFailure(0, notSseMessage(parser.invalid), true)
      for (const event of events) {
        if (notJsonData(event.data)) throw new UpstreamFailure(0, notJsonMessage(event.data), true)
        const out = translator.frame(event.data, event.event)
        held += out.frames
        content ||= out.content
      }
      if (done) {
        if (parser.dispatched === 0) throw new UpstreamFailure(0, 'upstream closed the stream without sending anything', true)
        ended = true
        break
      }
    }
  } catch (error) {
    void reader.cancel().catch(() => {})
    if (error instanceof UpstreamFailure) throw error
    throw new UpstreamFailure(0, `upstream stream broke before any content: ${(error as Error).message}`, true)
  }
  if (ended) held += translator.end()
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (held) controller.enqueue(encoder.encode(held))
      if (ended) controller.close()
    },
    async pull(controller) {
      const frames = await nextFrames(reader, parser, translator)
      if (frames.text) controller.enqueue(encoder.encode(frames.text))
      if (frames.over) controller.close()
    },
    cancel(reason) {
      return reader.cancel(reason)
    },
  })
}

/** The client's frames of the next upstream chunk; `over` once the stream has ended (well or not). */
async function nextFrames(reader: ReadableStreamDefaultReader<Uint8Array>, parser: SseParser, translator: SseTranslator): Promise<{ text: string; over: boolean }> {
  let text = ''
  const broken = (message: string) => {
    translator.broke?.(message)
    return errorFrame(message)
  }
  try {
    const { done, value } = await reader.read()
    const events = done ? parser.end() : parser.push(value)
    for (const event of events) {
      if (notJsonData(event.data)) return { text: text + broken(notJsonMessage(event.data)), over: cancelled(reader) }
      text += translator.frame(event.data, event.event).frames
    }
    if (parser.invalid !== undefined) return { text: text + broken(notSseMessage(parser.invalid)), over: cancelled(reader) }
    return done ? { text: text + translator.end(), over: true } : { text, over: false }
  } catch (error) {
    if (error instanceof UpstreamFailure) return { text: text + broken(error.message), over: cancelled(reader) }
    return { text: text + broken(`upstream broke off: ${(error as Error).message}`), over: true }
  }
}

function cancelled(reader: ReadableStreamDefaultReader<Uint8Array>): true {
  void reader.cancel().catch(() => {})
  return true
}

/** OpenAI's in-stream error: a `data` event holding `{error}`, which its SDK raises. */
function errorFrame(message: string): string {
  return `data: ${JSON.stringify({ error: { message, type: 'upstream_error', code: 'upstream_error' } })}\n\n`
}
