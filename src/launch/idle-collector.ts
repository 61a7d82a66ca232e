export interface IdleCollectorOptions {
  /** how many requests have arrived so far (a counter that only grows) */
  arrived(): number
  /** requests still being answered, streams included */
  inFlight(): number
  /** a full collection (default `Bun.gc(true)`) */
  collect?(): void
  /** how long the server must be quiet before it collects (default 1 s) */
  quietMs?: number
}

/**
 * Gives a burst's garbage back once the burst is over. JavaScriptCore's collector paces itself by
 * allocation, so a gateway that goes quiet keeps whatever heap its last requests left (setup, a load
 * test, a day's traffic) until something allocates again. This runs one full collection when a whole
 * `quietMs` passes with no request arriving and none in flight, then none until traffic comes back:
 * an idle gateway costs nothing, and only a request that arrives during the collection waits for it
 * (3-10 ms at an idle heap's size). Measured on the compiled binary: idle RSS
 * after the bench's setup 60.0 → 58.5 MB (anonymous 19.2 → 17.6), and 20 s after 15 s of load 114 → 108 MB.
 */
export function startIdleCollector(options: IdleCollectorOptions): { stop(): void } {
  const step = idleStep(options)
  const timer = setInterval(step, options.quietMs ?? 1000)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}

/** One check of the collector: exported so tests can drive it without waiting for the clock. Returns whether it collected. */
export function idleStep({ arrived, inFlight, collect = () => Bun.gc(true) }: IdleCollectorOptions): () => boolean {
  let seen = arrived()
  // start-up leaves garbage of its own (migrations, schemas, route tables)
  let owed = true
  return () => {
    const now = arrived()
    if (now !== seen) {
      // traffic during the last interval: not quiet yet, but something to collect once it is
      seen = now
      owed = true
      return false
    }
    if (!owed || inFlight() > 0) return false
    owed = false
    collect()
    return true
  }
}
