import type { BodyPlaces } from './places'

/**
 * A body made from the client's bytes (a conversion's spliced tails, a patch's unchanged runs) as the pieces it is
 * made of, in order: views into the client's bytes and into freshly encoded text. What is sent as a Blob is made
 * straight from them (one copy); only a body sent as bytes, or read as text, is joined first. Use them at once:
 * a text piece may view a scratch buffer the next conversion reuses.
 */
export interface BodyPieces {
  pieces: Uint8Array<ArrayBuffer>[]
  size: number
  /** where the client's runs are in the body; undefined when it does not hold all of them (body-places.ts) */
  places?: BodyPlaces
}

/** The pieces end to end. */
export function joinedPieces({ pieces }: BodyPieces): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Bun.concatArrayBuffers(pieces))
}
