import { totalTokens, type StreamEvent, type Usage } from '../../ir'
import { encodeSse, type SseEvent } from '../../protocols/sse'
import type { StreamDecoder, StreamEncoder, UsageTap } from '../../protocols/types'
import { findGarbage, GarbageError, notJsonMessage } from './check'
import type { PeekedStream } from './peek'
import { Holdback } from './holdback'
import { HeldOutput, Produced } from './output'

export interface StreamEnd {
  usage: Usage | undefined
  /** set when the upstream broke after the client got its first byte */
  error?: string
  /** the client went away before the end */
  aborted: boolean
  /** the text, reasoning and tool arguments sent to the client (metering estimates usage from it when none was reported) */
  output?: string
}

/** Settlement reads the produced text only when usage will not do: none reported, or the stream was cut. */
export function outputNeeded(usage: Usage | undefined, end: { aborted: boolean; error?: string }): boolean {
  return !usage || totalTokens(usage) === 0 || end.aborted || end.error !== undefined
}

export interface PipeHooks {
  /** aborts the upstream request (client gone, or the upstream fell silent) */
  abortUpstream(reason?: Error): void
  /** an upstream silent this long after its first content is given up on */
  idleMs: number
  /** called exactly once, when the stream is over for any reason */
  onEnd(end: StreamEnd): void
}

const encoder = new TextEncoder()

/** Sent while the upstream is silent, this often: below Bun.serve's idle timeout (10 s by default, 30 s from Elysia). */
const KEEPALIVE_MS = 5_000
/** An SSE comment: every SSE client ignores it (the Gemini JSON-array ingress turns it into whitespace). */
const KEEPALIVE_FRAME = new TextEncoder().encode(': keep-alive\n\n')

/**
 * Same protocol on both sides: the upstream bytes go to the client unchanged while a usage tap reads the parsed
 * events. Bytes go out only up to the last whole event (a chunk that ends inside an event keeps that tail until
 * the event is complete: a client can do nothing with half an event, and so an event found to be garbage can
 * still be withheld). An upstream that sends what is not its protocol after the first content (a line that is not
 * SSE, data that is not JSON) ends the stream with the client's error event after the valid events before it.
 * With `dropEvent` (chat usage the client did not ask for) a chunk that holds such an event, or that starts or ends
 * inside an event, is re-framed event by event instead.
 */
export function passthroughStream(
  peeked: PeekedStream,
  tap: UsageTap,
  errorFrame: (message: string) => string,
  hooks: PipeHooks,
  dropEvent?: (event: SseEvent) => boolean,
  /** the decoder the peek used; when given, the produced text is kept for `StreamEnd.output` */
  decoder?: StreamDecoder,
): ReadableStream<Uint8Array> {
  const parser = peeked.parser
  // The events the client may get: those of the peek (checked by it up to the first content), up to any garbage.
  const garbage = findGarbage(parser, peeked.events, peeked.fed)
  let good = garbage ? peeked.events.slice(0, garbage.at) : peeked.events
  let failure = garbage?.message
  for (let i = 0; i < good.length; i++) {
    if (tap.push(good[i]!) === false) {
      failure = notJsonMessage(good[i]!.data)
      good = good.slice(0, i)
      break
    }
  }
  const output = decoder ? new HeldOutput(decoder, peeked, good.length) : undefined
  const holdback = new Holdback()
  // Whether the bytes sent so far end on an event boundary: only then may a chunk go out as it came (dropEvent).
  let aligned = parser.idle()
  let held: Uint8Array[]
  if (failure !== undefined || dropEvent) held = [reframe(good, dropEvent)]
  else {
    held = []
    for (let i = 0; i < peeked.chunks.length; i++) {
      const out = holdback.take(peeked.chunks[i]!, i === peeked.chunks.length - 1 && parser.idle())
      if (out) held.push(...(Array.isArray(out) ? out : [out]))
    }
  }
  /** Tap, hold and check the events of one chunk; throws GarbageError at the first that must not go on. */
  const accept = (events: SseEvent[]): boolean => {
    const found = events.length || parser.invalid !== undefined ? findGarbage(parser, events) : undefined
    let cut = found ? found.at : events.length
    let message = found?.message
    let dropped = false
    for (let i = 0; i < cut; i++) {
      const event = events[i]!
      if (tap.push(event) === false) {
        message = notJsonMessage(event.data)
        cut = i
        break
      }
      output?.hold(event)
      if (dropEvent?.(event)) dropped = true
    }
    if (message !== undefined) throw new GarbageError(message, cut ? reframe(events.slice(0, cut), dropEvent) : undefined)
    return dropped
  }
  return pipe(peeked, hooks, () => tap.usage(), held, {
    chunk(value) {
      const events = parser.push(value)
      const dropped = accept(events)
      if (!dropEvent) return holdback.take(value, parser.idle())
      const wasAligned = aligned
      aligned = parser.idle()
      if (!dropped && wasAligned && aligned) return value
      return reframe(events, dropEvent)
    },
    end() {
      const events = parser.end()
      accept(events)
      if (dropEvent) return events.length ? reframe(events, dropEvent) : undefined
      return holdback.flush()
    },
    error: (message) => encoder.encode(errorFrame(message)),
  }, output && ((usage, end) => (outputNeeded(usage, end) ? output.text() : undefined)), failure)
}

function reframe(events: SseEvent[], dropEvent?: (event: SseEvent) => boolean): Uint8Array {
  let text = ''
  for (const event of events) if (!dropEvent?.(event)) text += event.data === '[DONE]' ? 'data: [DONE]\n\n' : encodeSse(event)
  return encoder.encode(text)
}

/** Different protocols: upstream SSE → IR events → client SSE, event by event; garbage ends it with the client's error. */
export function convertStream(
  peeked: PeekedStream,
  decoder: StreamDecoder,
  streamEncoder: StreamEncoder,
  hooks: PipeHooks,
): ReadableStream<Uint8Array> {
  let usage: Usage | undefined
  const produced = new Produced()
  const encode = (events: StreamEvent[]): Uint8Array | undefined => {
    let text = ''
    for (const event of events) {
      produced.collect(event)
      if (event.type === 'usage') usage = event.usage
      else if (event.type === 'finish' && event.usage) usage = event.usage
      for (const frame of streamEncoder.push(event)) text += frame
    }
    return text ? encoder.encode(text) : undefined
  }
  const parser = peeked.parser
  /** Decode the parsed events up to any garbage; throws GarbageError (with what was encoded before it) at garbage. */
  const decode = (sses: SseEvent[], from: number, extra: StreamEvent[] = []): Uint8Array | undefined => {
    const found = sses.length || parser.invalid !== undefined ? findGarbage(parser, sses, from) : undefined
    const upto = found ? found.at : sses.length
    const events: StreamEvent[] = [...extra]
    for (let i = from; i < upto; i++) events.push(...decoder.push(sses[i]!))
    const out = encode(events)
    if (found) throw new GarbageError(found.message, out)
    return out
  }
  let first: Uint8Array | undefined
  let failure: string | undefined
  try {
    first = decode(peeked.events, peeked.fed, peeked.decoded)
  } catch (error) {
    first = (error as GarbageError).before
    failure = (error as GarbageError).message
  }
  return pipe(peeked, hooks, () => usage, first ? [first] : [], {
    chunk: (value) => decode(parser.push(value), 0),
    end() {
      const body = decode(parser.end(), 0, [])
      const events = decoder.end()
      const tail = encode(events)
      const close = streamEncoder.end().join('')
      return [body, tail, close ? encoder.encode(close) : undefined].filter((b): b is Uint8Array => b !== undefined)
    },
    error(message) {
      const frames = streamEncoder.push({ type: 'error', error: { message } }).join('') + streamEncoder.end().join('')
      return encoder.encode(frames)
    },
  }, (u, end) => (outputNeeded(u, end) ? produced.text() : undefined), failure)
}

/** Bytes for the client: one chunk or a few to send in order. */
type Out = Uint8Array | Uint8Array[] | undefined

interface Transform {
  chunk(value: Uint8Array): Out
  end(): Out
  error(message: string): Uint8Array
}

/** Enqueue what a transform gave; false when that was nothing. */
function send(controller: ReadableStreamDefaultController<Uint8Array>, out: Out): boolean {
  if (out === undefined) return false
  if (!Array.isArray(out)) {
    if (out.byteLength === 0) return false
    controller.enqueue(out)
    return true
  }
  let sent = false
  for (const part of out) {
    if (part.byteLength === 0) continue
    controller.enqueue(part)
    sent = true
  }
  return sent
}

function pipe(
  peeked: PeekedStream,
  hooks: PipeHooks,
  usage: () => Usage | undefined,
  held: Uint8Array[],
  transform: Transform,
  output?: (usage: Usage | undefined, end: Omit<StreamEnd, 'usage'>) => string | undefined,
  /** garbage already found in what the peek read: the held bytes, then the error event */
  failure?: string,
): ReadableStream<Uint8Array> {
  let finished = false
  let stream: ReadableStreamDefaultController<Uint8Array> | undefined
  // When the pending upstream read began; undefined while none is pending (the client has not asked for more:
  // a slow reader is no upstream's silence).
  let readingSince: number | undefined
  // When the client last got what it asked for (the end of the last pull).
  let pulledAt = performance.now()
  let keptAliveAt = 0
  // One timer per stream, re-armed only when it fires: no per-chunk timer churn. It ends a stream that makes no
  // progress for `idleMs` either way (an upstream silent while we wait on it: the client's error event; a client that
  // asks for nothing: it is gone, the upstream is dropped and not blamed), and while the upstream is silent it sends
  // the client an SSE comment every KEEPALIVE_MS: Bun.serve ends a response that writes nothing for its idleTimeout
  // (30 s as Elysia sets it; an upstream thinking longer mid-answer got a reset connection), and so do proxies in front.
  let idleTimer: ReturnType<typeof setTimeout> | undefined
  const watchIdle = () => {
    if (finished) return
    const now = performance.now()
    let next: number
    if (readingSince !== undefined) {
      const silent = now - readingSince
      if (silent >= hooks.idleMs) return hooks.abortUpstream(new Error(`no data from the upstream for ${Math.round(silent / 1000)} s`))
      if (now - Math.max(readingSince, keptAliveAt) >= KEEPALIVE_MS) {
        stream?.enqueue(KEEPALIVE_FRAME)
        keptAliveAt = now
      }
      next = Math.min(readingSince + hooks.idleMs, Math.max(readingSince, keptAliveAt) + KEEPALIVE_MS) - now
    } else {
      const stalled = now - pulledAt
      if (stalled >= hooks.idleMs) return clientGone(`the client read nothing for ${Math.round(stalled / 1000)} s`)
      next = pulledAt + hooks.idleMs - now
    }
    idleTimer = setTimeout(watchIdle, Math.max(next, 1))
  }
  idleTimer = setTimeout(watchIdle, Math.min(hooks.idleMs, KEEPALIVE_MS))
  const finish = (end: Omit<StreamEnd, 'usage'>) => {
    if (finished) return
    finished = true
    clearTimeout(idleTimer)
    const u = usage()
    hooks.onEnd({ ...end, usage: u, output: output?.(u, end) })
  }
  /** Garbage from the upstream: what was valid before it, the client's error event, the end; the upstream is dropped. */
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, message: string, before?: Uint8Array, upstreamOpen = true) => {
    if (before?.byteLength) controller.enqueue(before)
    controller.enqueue(transform.error(message))
    controller.close()
    if (upstreamOpen) {
      hooks.abortUpstream()
      void peeked.reader.cancel().catch(() => {})
    }
    finish({ aborted: false, error: message })
  }
  const clientGone = (why: string) => {
    hooks.abortUpstream(new Error(why))
    void peeked.reader.cancel().catch(() => {})
    try {
      // ends the response with a reset; no Error: Bun.serve would print it, and this end is expected
      stream?.error(undefined)
    } catch {}
    finish({ aborted: true })
  }
  return new ReadableStream<Uint8Array>({
    start(controller) {
      stream = controller
      for (const chunk of held) if (chunk.byteLength) controller.enqueue(chunk)
    },
    // A pull that enqueues nothing is not called again, so read until there is something to send.
    async pull(controller) {
      if (failure !== undefined) return fail(controller, failure, undefined, !peeked.ended)
      try {
        for (;;) {
          let result: Awaited<ReturnType<typeof peeked.reader.read>>
          if (peeked.ended) result = { done: true, value: undefined }
          else {
            readingSince = performance.now()
            result = await peeked.reader.read()
            readingSince = undefined
            pulledAt = performance.now()
          }
          if (result.done) {
            send(controller, transform.end())
            controller.close()
            finish({ aborted: false })
            return
          }
          if (send(controller, transform.chunk(result.value))) return
        }
      } catch (error) {
        if (finished) return
        if (error instanceof GarbageError) return fail(controller, error.message, error.before, !peeked.ended)
        const message = `upstream stream broke: ${(error as Error).message}`
        controller.enqueue(transform.error(message))
        controller.close()
        finish({ aborted: false, error: message })
      }
    },
    cancel() {
      hooks.abortUpstream()
      void peeked.reader.cancel().catch(() => {})
      finish({ aborted: true })
    },
  })
}
