/**
 * A body sent upstream as a Blob can stand in for the client's bytes while the upstream answers (request-body.ts
 * `release`), when most of them went into it as they were: the tool results and texts a conversion copied
 * (spliced-body.ts), or everything but the top-level members a patch replaced (raw-json-patch.ts). The client's body
 * is then those runs, each at a known place in the sent body, and the bytes between them (the gaps), kept.
 */
export interface BodyPlaces {
  /** the client's body's size */
  size: number
  /** start and end of each run of the client's body that the sent body holds, in pairs, in order */
  runs: readonly number[]
  /** where each run starts in the sent body */
  at: readonly number[]
}

/** How many of the client's bytes are not in the sent body. */
export function gapBytes(places: BodyPlaces): number {
  let size = places.size
  for (let r = 0; r < places.runs.length; r += 2) size -= places.runs[r + 1]! - places.runs[r]!
  return size
}

/** The client's bytes between the runs, end to end. */
export function gapsOf(body: Uint8Array, places: BodyPlaces): Uint8Array<ArrayBuffer> {
  const { runs } = places
  const gaps = new Uint8Array(gapBytes(places))
  let at = 0
  let from = 0
  for (let r = 0; r < runs.length; r += 2) {
    gaps.set(body.subarray(from, runs[r]), at)
    at += runs[r]! - from
    from = runs[r + 1]!
  }
  gaps.set(body.subarray(from), at)
  return gaps
}

/** The client's body made again: its gaps, and each run copied back from its place in the body that was sent. */
export function rebuiltBody(places: BodyPlaces, gaps: Uint8Array, sent: Uint8Array): Uint8Array<ArrayBuffer> {
  const { runs } = places
  const out = new Uint8Array(places.size)
  let to = 0
  let gap = 0
  let from = 0
  for (let r = 0; r < runs.length; r += 2) {
    const before = runs[r]! - from
    out.set(gaps.subarray(gap, gap + before), to)
    gap += before
    to += before
    const length = runs[r + 1]! - runs[r]!
    const start = places.at[r / 2]!
    out.set(sent.subarray(start, start + length), to)
    to += length
    from = runs[r + 1]!
  }
  out.set(gaps.subarray(gap), to)
  return out
}
