/**
 * The relay's upstream requests in flight, each by its AbortController: attempts still waiting for their
 * upstream's answer or first content, and streams open to a client. Shutdown waits for them and, once the
 * grace period is over, aborts the rest (`endAll`): an open stream then ends the way a cut upstream ends it
 * (the client protocol's own error event, then the end of the stream) and is settled for what the client got;
 * an attempt still waiting fails, and no new attempt starts (`closed`), so its client gets a 503 in its own
 * shape. The metrics read the count of open streams.
 */
export function createOpenStreams() {
  const streams = new Set<AbortController>()
  const attempts = new Set<AbortController>()
  let closed = false
  let waiters: (() => void)[] = []
  const settle = () => {
    if (streams.size > 0 || attempts.size > 0) return
    const done = waiters
    waiters = []
    for (const resolve of done) resolve()
  }
  return {
    attemptStarted(upstream: AbortController): void {
      attempts.add(upstream)
    },
    attemptEnded(upstream: AbortController): void {
      if (attempts.delete(upstream)) settle()
    },
    /** a stream went to its client (its attempt is over, the stream is not) */
    add(upstream: AbortController): void {
      streams.add(upstream)
    },
    delete(upstream: AbortController): void {
      if (streams.delete(upstream)) settle()
    },
    /** streams open to clients now */
    get size(): number {
      return streams.size
    },
    /** upstream requests in flight: open streams and attempts still waiting */
    get inFlight(): number {
      return streams.size + attempts.size
    },
    /** set by `endAll`: no new upstream attempt may start */
    get closed(): boolean {
      return closed
    },
    /** resolves once nothing is in flight (at once when nothing is) */
    idle(): Promise<void> {
      if (streams.size === 0 && attempts.size === 0) return Promise.resolve()
      return new Promise((resolve) => waiters.push(resolve))
    },
    /** Stop new attempts and abort every upstream request in flight with `reason`; returns how many streams were open. */
    endAll(reason: Error): number {
      closed = true
      const n = streams.size
      for (const upstream of [...streams, ...attempts]) upstream.abort(reason)
      return n
    },
  }
}

export type OpenStreams = ReturnType<typeof createOpenStreams>
