import type { SseEvent } from '../../protocols/sse'
import type { FrameParser } from '../../protocols/types'
import { maskSecrets } from '../mask'

/**
 * What an upstream stream must look like to be passed on or converted: SSE lines only, and `data` that is a JSON
 * object (or chat's `[DONE]`; an empty payload is a harmless keep-alive). The data is checked by its two ends only,
 * which is cheap; the usage taps and decoders parse what they read and report what does not parse.
 */
export function notJsonData(data: string): boolean {
  let i = 0
  let j = data.length - 1
  while (i <= j && isSpace(data.charCodeAt(i))) i++
  while (j >= i && isSpace(data.charCodeAt(j))) j--
  if (i > j) return false
  if (data.charCodeAt(i) === 123 /* { */ && data.charCodeAt(j) === 125 /* } */) return false
  return data.slice(i, j + 1) !== '[DONE]'
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9
}

export function notSseMessage(line: string): string {
  return maskSecrets(`upstream sent a line that is not SSE: ${JSON.stringify(line)}`)
}

export function notJsonMessage(data: string): string {
  return maskSecrets(`upstream sent data that is not JSON: ${JSON.stringify(data.length > 80 ? `${data.slice(0, 80)}…` : data)}`)
}

export interface Garbage {
  /** index in the events of the first one that must not go on (all of them: `events.length`) */
  at: number
  message: string
}

/**
 * The first event of `events` (the last `events.length` the parser dispatched, checked from `from`) that is not the
 * protocol's: one that follows a line that is not SSE, or whose data is not JSON. Undefined when all are fine.
 */
export function findGarbage(parser: FrameParser, events: SseEvent[], from = 0): Garbage | undefined {
  let at = events.length
  let message: string | undefined
  if (parser.invalid !== undefined) {
    at = Math.max(from, parser.invalidAt - (parser.dispatched - events.length))
    message = notSseMessage(parser.invalid)
  }
  for (let i = from; i < at; i++) {
    if (notJsonData(events[i]!.data)) return { at: i, message: notJsonMessage(events[i]!.data) }
  }
  return message === undefined ? undefined : { at, message }
}

/** Thrown by a stream transform that met garbage: `before` is what still goes to the client ahead of the error event. */
export class GarbageError extends Error {
  constructor(
    message: string,
    readonly before: Uint8Array | undefined,
  ) {
    super(message)
  }
}
