import type { NewLog } from '../db/repos/logs'

export interface LogWriterOptions {
  /** flush at least this often while rows wait (default 200 ms) */
  intervalMs?: number
  /** flush as soon as this many rows wait (default 250: a commit holds the event loop ~4.5 µs a row) */
  batchRows?: number
  /** told after each batch: how long the commit (or the hand-over to the writer thread) held this thread, and its rows; `failed` when it threw */
  onFlush?: (ms: number, rows: number, failed: boolean) => void
}

/** Where a batch goes: log rows, with the quota ledger's pending deltas in the same transaction (`Repos`, or a test's own). */
export interface MeteringSink {
  commitMetering(rows: NewLog[]): Promise<void> | void
  /** resolves once what was committed is on disk (a sink that writes elsewhere, e.g. on a thread) */
  drainMetering?(): Promise<void> | void
}

/**
 * Log rows (and the quota ledger's deltas, which call `wake`) leave the request path through this queue
 * and reach the database in batched transactions: every `intervalMs`, or as soon as `batchRows` are waiting,
 * and on stop. One batch is committed at a time, in order. A failed write keeps its rows for the next flush, so
 * a busy database delays rows but never drops them; a crash loses at most one interval of rows and charges, together.
 */
export function createLogWriter(sink: MeteringSink, options: LogWriterOptions = {}) {
  const intervalMs = options.intervalMs ?? 200
  const batchRows = options.batchRows ?? 250
  let queue: NewLog[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  let soon = false
  let woken = false
  let written = 0
  // the batch being committed; the next waits for it
  let chain: Promise<number> = Promise.resolve(0)

  async function commitQueued(): Promise<number> {
    if (timer) clearTimeout(timer)
    timer = undefined
    soon = false
    if (queue.length === 0 && !woken) return 0
    const rows = queue
    queue = []
    woken = false
    const started = performance.now()
    try {
      await sink.commitMetering(rows)
      written += rows.length
      options.onFlush?.(performance.now() - started, rows.length, false)
      return rows.length
    } catch (error) {
      options.onFlush?.(performance.now() - started, 0, true)
      console.error(`log writer: ${rows.length} rows not written yet (${(error as Error).message}); retrying`)
      queue = rows.concat(queue)
      woken = true
      schedule()
      return 0
    }
  }

  /** Commit what waits, after the batch in progress; never rejects. */
  function flush(): Promise<number> {
    chain = chain.then(commitQueued)
    return chain
  }

  function schedule(): void {
    if (timer) return
    timer = setTimeout(() => void flush(), intervalMs)
    timer.unref?.()
  }

  return {
    push(row: NewLog): void {
      queue.push(row)
      if (queue.length >= batchRows && !soon) {
        soon = true
        setImmediate(() => void flush())
      } else schedule()
    },
    /** Something besides a row waits (a quota delta): write it with the next batch. */
    wake(): void {
      woken = true
      schedule()
    },
    /** Write everything waiting now and wait until it is on disk (graceful stop, tests); resolves to the rows written. */
    async flush(): Promise<number> {
      const n = await flush()
      await sink.drainMetering?.()
      return n
    },
    get pending(): number {
      return queue.length
    },
    get written(): number {
      return written
    },
  }
}

export type LogWriter = ReturnType<typeof createLogWriter>
