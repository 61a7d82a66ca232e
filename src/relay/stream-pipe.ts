import { totalTokens, type StreamEvent, type Usage } from '../ir'
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

/** Raw events a passthrough holds undecoded; past this many characters they are decoded in one batch. */
const HELD_CHARS = 128 * 1024

/**
 * The text a passthrough stream gave the client, decoded only if settlement asks for it: most upstreams
 * report usage, and decoding every event (one JSON.parse each) was the largest cost of a passthrough stream.
 * Raw events are held as they went out, up to HELD_CHARS, then decoded as a batch so memory stays bounded.
 */
class HeldOutput {
  private readonly produced: string[] = []
  private held: SseEvent[] = []
  private heldChars = 0

  constructor(
    private readonly decoder: StreamDecoder,
    peeked: PeekedStream,
  ) {
    for (const event of peeked.decoded) collectOutput(event, this.produced)
    for (let i = peeked.fed; i < peeked.events.length; i++) this.hold(peeked.events[i]!)
  }

  hold(event: SseEvent): void {
    this.held.push(event)
    this.heldChars += event.data.length
    if (this.heldChars > HELD_CHARS) this.decodeHeld()
  }

  text(): string {
    this.decodeHeld()
    return this.produced.join('')
  }

  private decodeHeld(): void {
    for (const event of this.held) for (const decoded of this.decoder.push(event)) collectOutput(decoded, this.produced)
    this.held = []
    this.heldChars = 0
  }
}

/**
 * Same protocol on both sides: the upstream bytes go to the client unchanged, chunk by chunk, while a
 * usage tap reads the parsed events. With `dropEvent` (chat usage the client did not ask for) a chunk that
 * holds such an event, or that starts or ends inside an event, is re-framed event by event instead.
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
  const output = decoder ? new HeldOutput(decoder, peeked) : undefined
  for (const event of peeked.events) tap.push(event)
  const parser = peeked.parser
  // Whether the bytes sent so far end on an event boundary: only then may a chunk go out as it came.
  let aligned = parser.idle()
  const forward = (value: Uint8Array | undefined, events: SseEvent[]): Uint8Array | undefined => {
    let dropped = false
    for (const event of events) {
      tap.push(event)
      output?.hold(event)
      if (dropEvent?.(event)) dropped = true
    }
    const wasAligned = aligned
    aligned = parser.idle()
    if (!dropEvent || (value && !dropped && wasAligned && aligned)) return value
    return reframe(events, dropEvent)
  }
  const held = dropEvent ? [reframe(peeked.events, dropEvent)] : peeked.chunks
  return pipe(peeked, hooks, () => tap.usage(), held, {
    chunk: (value) => forward(value, parser.push(value)),
    end() {
      const events = parser.end()
      const out = forward(undefined, events)
      return events.length ? out : undefined
    },
    error: (message) => encoder.encode(errorFrame(message)),
  }, output && ((usage, end) => (outputNeeded(usage, end) ? output.text() : undefined)))
}

function reframe(events: SseEvent[], dropEvent: (event: SseEvent) => boolean): Uint8Array {
  let text = ''
  for (const event of events) if (!dropEvent(event)) text += event.data === '[DONE]' ? 'data: [DONE]\n\n' : encodeSse(event)
  return encoder.encode(text)
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
  const first = encode([...peeked.decoded, ...peeked.events.slice(peeked.fed).flatMap((sse) => decoder.push(sse))])
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
  }, (u, end) => (outputNeeded(u, end) ? produced.join('') : undefined))
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
  output?: (usage: Usage | undefined, end: Omit<StreamEnd, 'usage'>) => string | undefined,
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
    const u = usage()
    hooks.onEnd({ ...end, usage: u, output: output?.(u, end) })
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
