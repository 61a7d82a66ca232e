import type { StreamEvent, Usage } from '../ir'
import { encodeSse, type SseEvent } from '../protocols/sse'
import type { StreamDecoder, StreamEncoder, UsageTap } from '../protocols/types'
import type { PeekedStream } from './stream-peek'

export interface StreamEnd {
  usage: Usage | undefined
  /** set when the upstream broke after the client got its first byte */
  error?: string
  /** the client went away before the end */
  aborted: boolean
  /** the text, reasoning and tool arguments sent to the client (metering estimates usage from it when none was reported) */
  output?: string
}

/** Append what an event gives the client to `out`. */
function collectOutput(event: StreamEvent, out: string[]): void {
  if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'tool-input-delta') out.push(event.delta)
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

/**
 * Same protocol on both sides: the upstream bytes go to the client unchanged, chunk by chunk, while a
 * usage tap reads the parsed events. With `dropEvent` (chat usage the client did not ask for) the stream
 * is re-framed event by event instead, so that one event can be left out.
 */
export function passthroughStream(
  peeked: PeekedStream,
  tap: UsageTap,
  errorFrame: (message: string) => string,
  hooks: PipeHooks,
  dropEvent?: (event: SseEvent) => boolean,
  /** the decoder the peek used; when given, the produced text is collected for `StreamEnd.output` */
  decoder?: StreamDecoder,
): ReadableStream<Uint8Array> {
  const produced: string[] = []
  const observe = (event: SseEvent) => {
    tap.push(event)
    if (decoder) for (const decoded of decoder.push(event)) collectOutput(decoded, produced)
  }
  if (decoder) for (const decoded of peeked.decoded) collectOutput(decoded, produced)
  const reframe = (events: SseEvent[]) =>
    encoder.encode(events.filter((e) => !dropEvent!(e)).map((e) => (e.data === '[DONE]' ? 'data: [DONE]\n\n' : encodeSse(e))).join(''))
  for (const event of peeked.events) tap.push(event)
  const held = dropEvent ? [reframe(peeked.events)] : peeked.chunks
  return pipe(peeked, hooks, () => tap.usage(), held, {
    chunk(value) {
      const events = peeked.parser.push(value)
      for (const event of events) observe(event)
      return dropEvent ? reframe(events) : value
    },
    end() {
      const events = peeked.parser.end()
      for (const event of events) observe(event)
      return dropEvent && events.length ? reframe(events) : undefined
    },
    error: (message) => encoder.encode(errorFrame(message)),
  }, () => produced.join(''))
}

/** Different protocols: upstream SSE → IR events → client SSE, event by event. */
export function convertStream(
  peeked: PeekedStream,
  decoder: StreamDecoder,
  streamEncoder: StreamEncoder,
  hooks: PipeHooks,
): ReadableStream<Uint8Array> {
  let usage: Usage | undefined
  const produced: string[] = []
  const encode = (events: StreamEvent[]): Uint8Array | undefined => {
    let text = ''
    for (const event of events) {
      collectOutput(event, produced)
      if (event.type === 'usage') usage = event.usage
      else if (event.type === 'finish' && event.usage) usage = event.usage
      for (const frame of streamEncoder.push(event)) text += frame
    }
    return text ? encoder.encode(text) : undefined
  }
  const first = encode(peeked.decoded)
  return pipe(peeked, hooks, () => usage, first ? [first] : [], {
    chunk(value) {
      const events: StreamEvent[] = []
      for (const sse of peeked.parser.push(value)) events.push(...decoder.push(sse))
      return encode(events)
    },
    end() {
      const events: StreamEvent[] = []
      for (const sse of peeked.parser.end()) events.push(...decoder.push(sse))
      events.push(...decoder.end())
      const body = encode(events)
      const tail = streamEncoder.end().join('')
      return concat(body, tail ? encoder.encode(tail) : undefined)
    },
    error(message) {
      const frames = streamEncoder.push({ type: 'error', error: { message } }).join('') + streamEncoder.end().join('')
      return encoder.encode(frames)
    },
  }, () => produced.join(''))
}

interface Transform {
  chunk(value: Uint8Array): Uint8Array | undefined
  end(): Uint8Array | undefined
  error(message: string): Uint8Array
}

function pipe(
  peeked: PeekedStream,
  hooks: PipeHooks,
  usage: () => Usage | undefined,
  held: Uint8Array[],
  transform: Transform,
  output?: () => string,
): ReadableStream<Uint8Array> {
  let finished = false
  let lastChunkAt = performance.now()
  // One timer per stream, re-armed only when it fires: no per-chunk timer churn.
  let idleTimer: ReturnType<typeof setTimeout> | undefined
  const watchIdle = () => {
    const silent = performance.now() - lastChunkAt
    if (silent >= hooks.idleMs) hooks.abortUpstream(new Error(`no data from the upstream for ${Math.round(silent / 1000)} s`))
    else idleTimer = setTimeout(watchIdle, hooks.idleMs - silent)
  }
  idleTimer = setTimeout(watchIdle, hooks.idleMs)
  const finish = (end: Omit<StreamEnd, 'usage'>) => {
    if (finished) return
    finished = true
    clearTimeout(idleTimer)
    hooks.onEnd({ ...end, usage: usage(), output: output?.() })
  }
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of held) if (chunk.byteLength) controller.enqueue(chunk)
    },
    // A pull that enqueues nothing is not called again, so read until there is something to send.
    async pull(controller) {
      try {
        for (;;) {
          const { done, value } = peeked.ended ? { done: true as const, value: undefined } : await peeked.reader.read()
          if (done) {
            const tail = transform.end()
            if (tail?.byteLength) controller.enqueue(tail)
            controller.close()
            finish({ aborted: false })
            return
          }
          lastChunkAt = performance.now()
          const out = transform.chunk(value)
          if (out?.byteLength) return controller.enqueue(out)
        }
      } catch (error) {
        if (finished) return
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

function concat(a: Uint8Array | undefined, b: Uint8Array | undefined): Uint8Array | undefined {
  if (!a) return b
  if (!b) return a
  const out = new Uint8Array(a.byteLength + b.byteLength)
  out.set(a)
  out.set(b, a.byteLength)
  return out
}
