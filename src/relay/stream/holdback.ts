// Passthrough framing: what of the upstream's bytes may go to the client now (whole events only), without copying.

const LF = 10
const CR = 13
/** Stands for "no byte: the previous output ended on an event boundary". */
const START = -1

/**
 * The bytes of a passthrough that may go to the client: up to the last event boundary (the end of a blank line) of
 * what came so far. A chunk that ends on one goes out as it is (no copy); a partial event's bytes wait here.
 */
export class Holdback {
  /** bytes after the last boundary, usually none or one chunk's tail */
  private pending: Uint8Array[] = []

  /**
   * What may go out now, in order (the pending tail first, then the new chunk up to its last boundary); `idle`: the
   * parser says the bytes so far end between events (then no scan is needed). No bytes are copied.
   */
  take(value: Uint8Array, idle: boolean): Uint8Array | Uint8Array[] | undefined {
    const cut = idle ? value.byteLength : lastBoundary(value, this.byteBefore(1), this.byteBefore(2))
    if (cut === 0) {
      if (this.pending === EMPTY) this.pending = [value]
      else this.pending.push(value)
      return undefined
    }
    const head = cut === value.byteLength ? value : value.subarray(0, cut)
    const pending = this.pending
    this.pending = cut === value.byteLength ? EMPTY : [value.subarray(cut)]
    if (pending.length === 0) return head
    pending.push(head)
    return pending
  }

  /** The end of the upstream: whatever is left goes out as it came. */
  flush(): Uint8Array[] {
    const out = this.pending
    this.pending = EMPTY
    return out
  }

  /** The n-th byte from the end of what is pending (START when there are fewer). */
  private byteBefore(n: number): number {
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const chunk = this.pending[i]!
      if (chunk.byteLength >= n) return chunk[chunk.byteLength - n]!
      n -= chunk.byteLength
    }
    return START
  }
}
/** shared by every Holdback with nothing pending: never pushed to (take replaces it before pushing) */
const EMPTY: Uint8Array[] = []


/**
 * The offset in `v` just after the last blank line's terminator (`\n`, `\r\n` or `\r`), 0 when `v` has none.
 * `p1`, `p2` are the two bytes before `v` (START when the output so far ended on a boundary there).
 * Line ends are ASCII and never part of a UTF-8 sequence, so bytes can be scanned as they are.
 */
export function lastBoundary(v: Uint8Array, p1: number, p2: number): number {
  const at = (i: number): number => (i >= 0 ? v[i]! : i === -1 ? p1 : p1 === START ? START : p2)
  for (let i = v.byteLength - 1; i >= 0; i--) {
    const c = v[i]!
    let s: number
    if (c === LF) s = at(i - 1) === CR ? i - 1 : i
    else if (c === CR) {
      if (i + 1 < v.byteLength && v[i + 1] === LF) continue
      s = i
    } else continue
    // the line that this terminator ends is blank when another terminator (or the last boundary) is right before it
    const t = at(s - 1)
    if (t === LF || t === CR || t === START) return i + 1
  }
  return 0
}
