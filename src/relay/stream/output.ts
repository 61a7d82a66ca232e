// What a stream gave the client, kept for settlement when the upstream reports no usage (or the stream was cut).
import type { StreamEvent } from '../../ir'
import type { SseEvent } from '../../protocols/sse'
import type { StreamDecoder } from '../../protocols/types'
import type { PeekedStream } from './peek'

/**
 * The text, reasoning and tool arguments a stream gave the client. A long answer is many thousands of small
 * deltas: kept as separate strings they cost several times their characters (a 27 MB stream held ~10 MB of them),
 * so every 1,024 pieces are joined into one string.
 */
export class Produced {
  private joined: string[] = []
  private pieces: string[] = []

  collect(event: StreamEvent): void {
    if (event.type !== 'text-delta' && event.type !== 'reasoning-delta' && event.type !== 'tool-input-delta') return
    this.pieces.push(event.delta)
    if (this.pieces.length >= 1024) {
      this.joined.push(this.pieces.join(''))
      this.pieces = []
    }
  }

  text(): string {
    return this.joined.join('') + this.pieces.join('')
  }
}

/** Raw events a passthrough holds undecoded; past this many characters they are decoded in one batch. */
const HELD_CHARS = 128 * 1024

/**
 * The text a passthrough stream gave the client, decoded only if settlement asks for it: most upstreams
 * report usage, and decoding every event (one JSON.parse each) was the largest cost of a passthrough stream.
 * Raw events are held as they went out, up to HELD_CHARS, then decoded as a batch so memory stays bounded.
 */
export class HeldOutput {
  private readonly produced = new Produced()
  private held: SseEvent[] = []
  private heldChars = 0

  constructor(
    private readonly decoder: StreamDecoder,
    peeked: PeekedStream,
    /** the peeked events the client gets (any after them were garbage) */
    upto: number,
  ) {
    for (const event of peeked.decoded) this.produced.collect(event)
    for (let i = peeked.fed; i < upto; i++) this.hold(peeked.events[i]!)
  }

  hold(event: SseEvent): void {
    this.held.push(event)
    this.heldChars += event.data.length
    if (this.heldChars > HELD_CHARS) this.decodeHeld()
  }

  text(): string {
    this.decodeHeld()
    return this.produced.text()
  }

  private decodeHeld(): void {
    for (const event of this.held) for (const decoded of this.decoder.push(event)) this.produced.collect(decoded)
    this.held = []
    this.heldChars = 0
  }
}
